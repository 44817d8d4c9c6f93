package com.example.events;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** An order was accepted; {@code couponCode} is null when the order has none; a repeated sku id is one more unit. */
public record OrderCreated(UUID eventId, Long orderId, Long userId, List<Long> skuIds, String couponCode, Instant occurredAt) implements OrderEvent {

    public OrderCreated {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
        Required.field(userId, "user_id");
        skuIds = Required.list(skuIds, "sku_ids");
    }
}
