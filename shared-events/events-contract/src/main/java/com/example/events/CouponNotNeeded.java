package com.example.events;

import java.time.Instant;
import java.util.UUID;

/** The order carries no coupon: the coupon step is done without an effect. */
public record CouponNotNeeded(UUID eventId, Long orderId, Instant occurredAt) implements CouponEvent {

    public CouponNotNeeded {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(occurredAt, "occurred_at");
    }
}
