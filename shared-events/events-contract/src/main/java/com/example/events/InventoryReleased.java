package com.example.events;

import java.time.Instant;
import java.util.UUID;

/** The order's reservation was released (or a tombstone now blocks a late reservation). */
public record InventoryReleased(UUID eventId, Long orderId, Instant occurredAt) implements InventoryEvent {

    public InventoryReleased {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
    }
}
