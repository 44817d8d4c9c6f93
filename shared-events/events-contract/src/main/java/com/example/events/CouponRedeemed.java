package com.example.events;

import java.time.Instant;
import java.util.UUID;

/** The coupon is now held by the order. */
public record CouponRedeemed(UUID eventId, Long orderId, String couponCode, Instant occurredAt) implements CouponEvent {

    public CouponRedeemed {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
        Required.field(couponCode, "coupon_code");
    }
}
