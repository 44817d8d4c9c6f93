package com.example.events.relay;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import reactor.core.publisher.Mono;

/**
 * Deletes sent outbox rows once they are older than the retention, a small batch per statement so
 * that the clean-up never holds many locks or bloats one transaction. Unsent and parked rows are
 * never deleted: only a row with {@code sent_at} qualifies.
 */
final class OutboxJanitor {

    private static final Logger log = LoggerFactory.getLogger(OutboxJanitor.class);

    private final OutboxStore store;
    private final RelayProperties.Janitor settings;

    OutboxJanitor(OutboxStore store, RelayProperties.Janitor settings) {
        this.store = store;
        this.settings = settings;
    }

    /** @return how many rows were deleted, over as many batches as it took */
    Mono<Long> deleteExpired() {
        return store.deleteSentBefore(settings.retention(), settings.batchSize())
                .expand(deleted -> deleted < settings.batchSize() ? Mono.empty()
                        : store.deleteSentBefore(settings.retention(), settings.batchSize()))
                .reduce(0L, Long::sum)
                .doOnNext(total -> {
                    if (total > 0) {
                        log.info("Outbox janitor deleted {} rows sent more than {} ago", total, settings.retention());
                    }
                });
    }
}
