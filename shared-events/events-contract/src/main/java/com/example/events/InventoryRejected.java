package com.example.events;

import java.time.Instant;
import java.util.UUID;

/** Nothing was reserved for the order (all-or-nothing), for the given reason. */
public record InventoryRejected(UUID eventId, Long orderId, String reason, Instant occurredAt) implements InventoryEvent {

    public InventoryRejected {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
        Required.field(reason, "reason");
    }
}
