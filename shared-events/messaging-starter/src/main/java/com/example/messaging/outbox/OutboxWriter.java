package com.example.messaging.outbox;

import org.springframework.r2dbc.core.DatabaseClient;

import com.example.events.DomainEvent;

import io.r2dbc.postgresql.codec.Json;
import reactor.core.publisher.Mono;

/**
 * Appends an event to the service's {@code outbox_events} table and wakes the relay. Call it inside
 * the transaction that makes the business change: the event then exists if and only if the change
 * does. The notification is delivered by PostgreSQL only when that transaction commits.
 */
public final class OutboxWriter {

    /** The LISTEN/NOTIFY channel the relay listens on. */
    public static final String CHANNEL = "outbox_events";

    /** The row and its notification (sent at commit) in one statement: one round trip. */
    private static final String APPEND = """
            with appended as (
                insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload, traceparent)
                values (:id, :aggregateType, :aggregateId, :eventType, :exchange, :payload, :traceparent)
                returning exchange)
            select pg_notify('%s', exchange) from appended""".formatted(CHANNEL);

    private final DatabaseClient db;

    public OutboxWriter(DatabaseClient db) {
        this.db = db;
    }

    /** Appends one of this system's own events (see {@link OutboundEvent#of}). */
    public Mono<Void> append(DomainEvent event) {
        return append(OutboundEvent.of(event));
    }

    public Mono<Void> append(OutboundEvent event) {
        DatabaseClient.GenericExecuteSpec insert = db.sql(APPEND)
                .bind("id", event.id())
                .bind("aggregateType", event.aggregateType())
                .bind("aggregateId", event.aggregateId())
                .bind("eventType", event.type())
                .bind("exchange", event.destination())
                .bind("payload", Json.of(event.payload()));
        insert = event.traceparent() == null ? insert.bindNull("traceparent", String.class)
                : insert.bind("traceparent", event.traceparent());
        return insert.then();
    }
}
