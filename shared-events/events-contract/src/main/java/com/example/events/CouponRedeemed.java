package com.example.events;

import java.time.Instant;
import java.util.UUID;

/**
 * The coupon is now held by the order.
 *
 * @param discountPercent the coupon's discount when it was redeemed (1..100); absent (null) in events of earlier
 *                        versions
 */
public record CouponRedeemed(UUID eventId, Long orderId, String couponCode, Integer discountPercent,
        Instant occurredAt) implements CouponEvent {

    public CouponRedeemed {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
        Required.field(couponCode, "coupon_code");
        Required.optionalBetween(discountPercent, 1, 100, "discount_percent");
    }
}
