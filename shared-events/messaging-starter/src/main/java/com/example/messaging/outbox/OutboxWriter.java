package com.example.messaging.outbox;

import java.util.List;
import java.util.UUID;

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

    /**
     * Several rows and their notifications in one statement, in the order given (the identity {@code seq} follows the
     * {@code order by}), one notification per exchange.
     */
    private static final String APPEND_ALL = """
            with appended as (
                insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload, traceparent)
                select id, aggregate_type, aggregate_id, event_type, exchange, payload::jsonb, traceparent
                  from unnest(:ids::uuid[], :aggregateTypes::text[], :aggregateIds::text[], :eventTypes::text[],
                              :exchanges::text[], :payloads::text[], :traceparents::text[])
                       with ordinality as event (id, aggregate_type, aggregate_id, event_type, exchange, payload,
                                                 traceparent, position)
                 order by position
                returning exchange)
            select pg_notify('%s', exchange) from (select distinct exchange from appended) as exchanges"""
            .formatted(CHANNEL);

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

    /**
     * Appends several events in one statement (one round trip), in the order given: what {@link #append} does for
     * each, in one go.
     */
    public Mono<Void> appendAll(List<OutboundEvent> events) {
        if (events.isEmpty()) {
            return Mono.empty();
        }
        if (events.size() == 1) {
            return append(events.get(0));
        }
        return db.sql(APPEND_ALL)
                .bind("ids", events.stream().map(OutboundEvent::id).toArray(UUID[]::new))
                .bind("aggregateTypes", events.stream().map(OutboundEvent::aggregateType).toArray(String[]::new))
                .bind("aggregateIds", events.stream().map(OutboundEvent::aggregateId).toArray(String[]::new))
                .bind("eventTypes", events.stream().map(OutboundEvent::type).toArray(String[]::new))
                .bind("exchanges", events.stream().map(OutboundEvent::destination).toArray(String[]::new))
                .bind("payloads", events.stream().map(OutboundEvent::payload).toArray(String[]::new))
                .bind("traceparents", events.stream().map(OutboundEvent::traceparent).toArray(String[]::new))
                .then();
    }
}
