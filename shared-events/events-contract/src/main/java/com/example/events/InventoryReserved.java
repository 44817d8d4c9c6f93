package com.example.events;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Every unit of the order is reserved.
 *
 * @param amountCents the order's undiscounted total: the sum over its units of each sku's {@code price_cents} when it
 *                    was reserved; absent (null) in events of earlier versions
 */
public record InventoryReserved(UUID eventId, Long orderId, List<Long> skuIds, Long amountCents, Instant occurredAt)
        implements InventoryEvent {

    public InventoryReserved {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
        skuIds = Required.list(skuIds, "sku_ids");
        Required.optionalBetween(amountCents, 0, Long.MAX_VALUE, "amount_cents");
    }
}
