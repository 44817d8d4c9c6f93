package com.example.messaging.outbox;

import java.util.Objects;
import java.util.UUID;

import com.example.events.DomainEvent;
import com.example.events.EventJson;
import com.example.events.Traceparent;

/**
 * Anything the outbox can carry: one message for one destination exchange, routed by its type. The id becomes
 * the AMQP {@code message_id} that consumers deduplicate on; events of one aggregate are published in the order
 * they were appended.
 *
 * @param id            the event id
 * @param aggregateType what the event is about, e.g. {@code order}
 * @param aggregateId   which one
 * @param type          the event type: routing key and {@code event_type} header
 * @param destination   the exchange to publish to
 * @param payload       the body, JSON
 * @param traceparent   W3C trace context of the request that caused the event, or null; only a valid one (see
 *                      {@link #causedBy})
 */
public record OutboundEvent(UUID id, String aggregateType, String aggregateId, String type, String destination,
        String payload, String traceparent) {

    public OutboundEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(aggregateType, "aggregateType");
        Objects.requireNonNull(aggregateId, "aggregateId");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(payload, "payload");
    }

    /** One of this system's own events, written with the contract's JSON mapping to its producer's exchange. */
    public static OutboundEvent of(DomainEvent event) {
        return new OutboundEvent(event.eventId(), event.aggregateType(), event.aggregateId(), event.eventType(),
                event.exchange(), EventJson.write(event), null);
    }

    /**
     * The same event, carrying the trace context of the request or message that caused it. The header comes from
     * outside and is stored and forwarded with the event, so one that is not a valid W3C {@code traceparent} is
     * dropped here, the one place where trace context enters what is stored.
     */
    public OutboundEvent causedBy(String traceparent) {
        return new OutboundEvent(id, aggregateType, aggregateId, type, destination, payload,
                Traceparent.validOrNull(traceparent));
    }
}
