package com.example.events;

import java.time.Instant;
import java.util.UUID;

/** The risk rules accept the order. */
public record RiskApproved(UUID eventId, Long orderId, Instant occurredAt) implements RiskEvent {

    public RiskApproved {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
    }
}
