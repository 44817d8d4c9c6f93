package com.example.messaging.deadletter;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import com.example.service.failure.Failures;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The depths of this service's dead-letter queues, read from the broker every {@code refresh-interval} (and
 * whenever an operator lists them) and kept for the gauges and the health indicator, so that neither a scrape
 * nor a health check ever waits for the broker. When the broker does not answer, the last figures stay, with
 * their age and the failure.
 */
final class DeadLetterMonitor implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterMonitor.class);

    private final List<String> queues;
    private final Function<List<String>, Map<String, Long>> depths;
    private final Duration interval;
    private final Duration timeout;
    private final LongSupplier nanoTime;
    private volatile Snapshot snapshot;
    private volatile String lastFailure;
    private Disposable schedule;

    DeadLetterMonitor(List<String> queues, DeadLetterBroker broker, DeadLetterProperties properties) {
        this(queues, broker::depths, properties.refreshInterval(), properties.brokerTimeout(), System::nanoTime);
    }

    /** @param depths blocking: reads the depths of the queues from the broker */
    DeadLetterMonitor(List<String> queues, Function<List<String>, Map<String, Long>> depths, Duration interval,
            Duration timeout, LongSupplier nanoTime) {
        this.queues = List.copyOf(queues);
        this.depths = depths;
        this.interval = interval;
        this.timeout = timeout;
        this.nanoTime = nanoTime;
    }

    /** The dead-letter queues watched, in name order of their exchanges. */
    List<String> queues() {
        return queues;
    }

    /** Reads the depths now (off the event loop), keeps them, and emits them in the order of {@link #queues()}. */
    Mono<Map<String, Long>> refresh() {
        return Mono.fromCallable(() -> depths.apply(queues))
                .subscribeOn(Schedulers.boundedElastic())
                .timeout(timeout)
                .doOnNext(figures -> {
                    snapshot = new Snapshot(Collections.unmodifiableMap(new LinkedHashMap<>(figures)),
                            nanoTime.getAsLong());
                    lastFailure = null;
                })
                .doOnError(failure -> lastFailure = Failures.describe(failure));
    }

    /** Messages in the queue at the last refresh; NaN before the first one. */
    double messages(String queue) {
        Snapshot current = snapshot;
        return current == null ? Double.NaN : current.depths().getOrDefault(queue, 0L);
    }

    /** Every queue's depth at the last refresh; empty before the first one. */
    Optional<Map<String, Long>> figures() {
        Snapshot current = snapshot;
        return current == null ? Optional.empty() : Optional.of(current.depths());
    }

    /** How old the figures are. */
    Optional<Duration> figuresAge() {
        Snapshot current = snapshot;
        return current == null ? Optional.empty()
                : Optional.of(Duration.ofNanos(Math.max(0, nanoTime.getAsLong() - current.takenAtNanos())));
    }

    /** Why the latest refresh failed; empty when it succeeded. */
    Optional<String> lastFailure() {
        return Optional.ofNullable(lastFailure);
    }

    @Override
    public synchronized void start() {
        if (schedule != null || queues.isEmpty()) {
            return;
        }
        schedule = Flux.interval(Duration.ZERO, interval)
                .onBackpressureDrop()
                .concatMap(tick -> refresh().onErrorResume(failure -> {
                    log.debug("Dead-letter queue depths not refreshed: {}", Failures.describe(failure));
                    return Mono.empty();
                }), 1)
                .subscribe();
    }

    @Override
    public synchronized void stop() {
        if (schedule != null) {
            schedule.dispose();
            schedule = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return schedule != null;
    }

    private record Snapshot(Map<String, Long> depths, long takenAtNanos) {
    }
}
