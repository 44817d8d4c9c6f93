package com.example.events.inbox;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.r2dbc.core.DatabaseClient;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Forgets processed event ids once they are older than the retention, in small batches (DESIGN.md
 * rule 7). The retention must be longer than any window in which the same event can arrive again:
 * broker redelivery, relay retries, and an operator requeueing a parked outbox row. A forgotten id
 * that arrives again would be applied again, so the default is generous (30 days).
 */
final class ProcessedEventsJanitor implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ProcessedEventsJanitor.class);

    private final DatabaseClient db;
    private final InboxProperties.Retention settings;
    private Scheduler scheduler;
    private Disposable schedule;

    ProcessedEventsJanitor(DatabaseClient db, InboxProperties.Retention settings) {
        this.db = db;
        this.settings = settings;
    }

    /** @return how many ids were forgotten, over as many batches as it took */
    Mono<Long> deleteExpired() {
        return deleteBatch()
                .expand(deleted -> deleted < settings.batchSize() ? Mono.empty() : deleteBatch())
                .reduce(0L, Long::sum)
                .doOnNext(total -> {
                    if (total > 0) {
                        log.info("Forgot {} processed event ids older than {}", total, settings.age());
                    }
                });
    }

    private Mono<Long> deleteBatch() {
        return db.sql("""
                delete from processed_events
                 where event_id in (select event_id
                                      from processed_events
                                     where processed_at < now() - :age_ms * interval '1 millisecond'
                                     order by processed_at
                                     limit :limit)""")
                .bind("age_ms", settings.age().toMillis())
                .bind("limit", settings.batchSize())
                .fetch()
                .rowsUpdated();
    }

    @Override
    public synchronized void start() {
        scheduler = Schedulers.newSingle("processed-events-janitor");
        Duration interval = settings.interval();
        schedule = Flux.interval(interval, interval, scheduler)
                .onBackpressureDrop()
                .concatMap(tick -> deleteExpired().onErrorResume(e -> {
                    log.warn("Processed-events janitor failed, will try again in {}: {}", interval, e.toString());
                    return Mono.empty();
                }))
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
