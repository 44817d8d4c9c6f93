package com.example.events;

import java.time.Instant;
import java.util.UUID;

/**
 * Inventory, coupon and risk said yes and the order costs something: charge its amount, once.
 *
 * @param amountCents what to charge, the order's {@code amount_cents} (> 0: an order of amount 0 needs no payment)
 */
public record PaymentRequested(UUID eventId, Long orderId, Long userId, Long amountCents, Instant occurredAt)
        implements OrderEvent {

    public PaymentRequested {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.field(userId, "user_id");
        Required.positive(amountCents, "amount_cents");
        Required.field(occurredAt, "occurred_at");
    }
}
