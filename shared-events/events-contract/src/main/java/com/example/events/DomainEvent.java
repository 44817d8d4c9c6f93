package com.example.events;

import java.time.Instant;
import java.util.UUID;

/**
 * What every event on the bus has in common. The event id is the outbox row id and the AMQP
 * {@code message_id}; consumers deduplicate on it.
 */
public sealed interface DomainEvent permits OrderEvent, InventoryEvent, CouponEvent, RiskEvent, PaymentEvent {

    /** Current schema version of every event body; bumped when a body changes incompatibly. */
    int SCHEMA_VERSION = 1;

    UUID eventId();

    /** Every event in this system is about one order, which is also the aggregate it is ordered by. */
    Long orderId();

    Instant occurredAt();

    /** The event type, used as routing key and {@code event_type} header: the record's simple name. */
    default String eventType() {
        return getClass().getSimpleName();
    }

    /** The exchange the producer of this event publishes to. */
    String exchange();

    default String aggregateType() {
        return "order";
    }

    default String aggregateId() {
        return orderId().toString();
    }
}
