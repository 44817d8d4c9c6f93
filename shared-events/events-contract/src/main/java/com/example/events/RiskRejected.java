package com.example.events;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The risk rules refuse the order, for the given reasons. */
public record RiskRejected(UUID eventId, Long orderId, List<String> reasons, Instant occurredAt) implements RiskEvent {

    public RiskRejected {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
        reasons = Required.list(reasons, "reasons");
    }
}
