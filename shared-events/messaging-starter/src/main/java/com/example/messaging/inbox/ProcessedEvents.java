package com.example.messaging.inbox;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;

import reactor.core.publisher.Mono;

/**
 * The {@code processed_events} table: which event ids this service has applied. The claim is
 * {@code ON CONFLICT DO NOTHING} and never a caught unique violation, which in PostgreSQL would abort the
 * transaction (docs/architecture.md, rule 2); two deliveries of one event racing in two transactions
 * serialize on the primary key: the second waits for the first and then conflicts.
 */
final class ProcessedEvents {

    private final DatabaseClient db;

    ProcessedEvents(DatabaseClient db) {
        this.db = db;
    }

    /** Emits true when the id is new (this transaction applies the event), false for a duplicate. */
    Mono<Boolean> claim(InboundEvent event) {
        return db.sql("insert into processed_events (event_id, event_type) values (:eventId, :eventType) "
                        + "on conflict (event_id) do nothing")
                .bind("eventId", event.id())
                .bind("eventType", event.type())
                .fetch()
                .rowsUpdated()
                .map(inserted -> inserted == 1);
    }

    /**
     * Claims the ids of a batch in one statement; emits the ids that are new (this transaction applies those events).
     * An id twice in the batch is new at most once; which copy applies is the caller's choice (the first).
     */
    Mono<Set<UUID>> claimAll(List<InboundEvent> events) {
        UUID[] ids = events.stream().map(InboundEvent::id).toArray(UUID[]::new);
        String[] types = events.stream().map(InboundEvent::type).toArray(String[]::new);
        // In id order: two batches that share ids (copies of one event) then wait for each other, never in a circle.
        return db.sql("insert into processed_events (event_id, event_type) "
                        + "select id, type from unnest(:eventIds::uuid[], :eventTypes::text[]) as batch (id, type) "
                        + "order by id on conflict (event_id) do nothing returning event_id")
                .bind("eventIds", ids)
                .bind("eventTypes", types)
                .map(row -> row.get(0, UUID.class))
                .all()
                .collect(HashSet::new, Set::add);
    }

    /**
     * Sets PostgreSQL's {@code lock_timeout} for the rest of the current transaction only ({@code set_config(..., true)}
     * is {@code SET LOCAL}): a statement that waits longer than this for a row lock fails with SQLSTATE 55P03.
     */
    Mono<Void> waitForLocksAtMost(Duration lockTimeout) {
        return db.sql("select set_config('lock_timeout', :timeout, true)")
                .bind("timeout", lockTimeout.toMillis() + "ms")
                .fetch()
                .rowsUpdated()
                .then();
    }

    /**
     * Forgets up to {@code limit} ids processed longer ago than {@code age}, oldest first. The age must be
     * longer than any window in which the same event can arrive again: broker redelivery, relay retries, and
     * an operator requeueing a parked outbox row; a forgotten id that arrives again would be applied again.
     */
    Mono<Long> forgetOlderThan(Duration age, int limit) {
        return db.sql("""
                delete from processed_events
                 where event_id in (select event_id
                                      from processed_events
                                     where processed_at < now() - :age_ms * interval '1 millisecond'
                                     order by processed_at
                                     limit :limit)""")
                .bind("age_ms", age.toMillis())
                .bind("limit", limit)
                .fetch()
                .rowsUpdated();
    }
}
