package com.example.events;

import java.time.Instant;
import java.util.UUID;

/** The coupon could not be redeemed for the order (unknown or already redeemed). */
public record CouponRejected(UUID eventId, Long orderId, String couponCode, String reason, Instant occurredAt) implements CouponEvent {

    public CouponRejected {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
        Required.field(couponCode, "coupon_code");
        Required.field(reason, "reason");
    }
}
