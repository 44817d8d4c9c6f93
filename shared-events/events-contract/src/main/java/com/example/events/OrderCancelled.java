package com.example.events;

import java.time.Instant;
import java.util.UUID;

/** The order was rejected: every step that succeeded for it must be undone. */
public record OrderCancelled(UUID eventId, Long orderId, String reason, Instant occurredAt) implements OrderEvent {

    public OrderCancelled {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
        Required.field(reason, "reason");
    }
}
