package com.example.events;

import java.time.Instant;
import java.util.UUID;

/** A coupon redeemed by the order is active again, because the order was cancelled. */
public record CouponReleased(UUID eventId, Long orderId, String couponCode, Instant occurredAt) implements CouponEvent {

    public CouponReleased {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
        Required.field(couponCode, "coupon_code");
    }
}
