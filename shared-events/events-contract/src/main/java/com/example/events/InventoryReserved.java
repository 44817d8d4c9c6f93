package com.example.events;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Every unit of the order is reserved. */
public record InventoryReserved(UUID eventId, Long orderId, List<Long> skuIds, Instant occurredAt) implements InventoryEvent {

    public InventoryReserved {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
        skuIds = Required.list(skuIds, "sku_ids");
    }
}
