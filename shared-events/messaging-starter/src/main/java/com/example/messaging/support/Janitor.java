package com.example.messaging.support;

import java.time.Duration;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import com.example.service.failure.Failures;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Deletes what has expired, a small batch per statement (docs/architecture.md, rule 7), every interval for as
 * long as the application runs: no clean-up holds many locks or bloats one transaction, and a failed round
 * (database away) is logged and tried again at the next interval. The outbox's sent rows and the inbox's
 * processed event ids each have one.
 */
public final class Janitor implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Janitor.class);

    private final String name;
    private final Supplier<Mono<Long>> deleteBatch;
    private final int batchSize;
    private final Duration interval;
    private final Duration timeout;
    private Scheduler scheduler;
    private Disposable schedule;

    /**
     * @param name        what is deleted, for the logs (e.g. "sent outbox rows older than 7d")
     * @param deleteBatch deletes at most {@code batchSize} expired rows and emits how many it deleted
     * @param interval    time between rounds; the first runs one interval after start
     * @param timeout     how long one round may take before it is abandoned
     */
    public Janitor(String name, Supplier<Mono<Long>> deleteBatch, int batchSize, Duration interval, Duration timeout) {
        this.name = name;
        this.deleteBatch = deleteBatch;
        this.batchSize = batchSize;
        this.interval = interval;
        this.timeout = timeout;
    }

    /** One round: batches until one deletes fewer than a full batch; emits the total. */
    public Mono<Long> deleteExpired() {
        return Mono.defer(deleteBatch)
                .expand(deleted -> deleted < batchSize ? Mono.empty() : Mono.defer(deleteBatch))
                .reduce(0L, Long::sum)
                .doOnNext(total -> {
                    if (total > 0) {
                        log.info("Janitor deleted {} {}", total, name);
                    }
                });
    }

    @Override
    public synchronized void start() {
        if (schedule != null) {
            return;
        }
        scheduler = Schedulers.newSingle("janitor");
        schedule = Flux.interval(interval, interval, scheduler)
                .onBackpressureDrop()
                .concatMap(tick -> deleteExpired().timeout(timeout).onErrorResume(e -> {
                    log.warn("Janitor of {} failed, will try again in {}: {}", name, interval, Failures.describe(e));
                    return Mono.empty();
                }), 1)
                .subscribe();
    }

    @Override
    public synchronized void stop() {
        if (schedule != null) {
            schedule.dispose();
            scheduler.dispose();
            schedule = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return schedule != null;
    }
}
