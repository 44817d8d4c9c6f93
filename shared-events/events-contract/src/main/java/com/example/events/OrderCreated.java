package com.example.events;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * An order was accepted; {@code couponCode} is null when the order has none; a repeated sku id is one more unit.
 * Whatever order-service accepts is checked again here, so a payload that breaks the contract (no units, an id
 * that is not positive, a malformed coupon code) cannot be read by any consumer: it is poison by construction.
 */
public record OrderCreated(UUID eventId, Long orderId, Long userId, List<Long> skuIds, String couponCode, Instant occurredAt) implements OrderEvent {

    public OrderCreated {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
        Required.positive(userId, "user_id");
        skuIds = Required.list(skuIds, "sku_ids");
        if (skuIds.isEmpty()) {
            throw new IllegalArgumentException("'sku_ids' must name at least one sku");
        }
        for (int i = 0; i < skuIds.size(); i++) {
            Required.positive(skuIds.get(i), "sku_ids[" + i + "]");
        }
        if (couponCode != null && !CouponCodes.isValid(couponCode)) {
            throw new IllegalArgumentException("'coupon_code' '" + couponCode + "' is not 1 to 64 of A-Z a-z 0-9 _ -");
        }
    }
}
