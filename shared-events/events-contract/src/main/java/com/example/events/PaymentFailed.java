package com.example.events;

import java.time.Instant;
import java.util.UUID;

/** No money moved: the provider declined the charge, or the order was cancelled before it was charged. */
public record PaymentFailed(UUID eventId, Long orderId, String reason, Instant occurredAt) implements PaymentEvent {

    public PaymentFailed {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(reason, "reason");
        Required.field(occurredAt, "occurred_at");
    }
}
