package com.example.events;

import java.time.Instant;
import java.util.UUID;

/**
 * The order's charge was refunded in full: the compensation of a successful payment.
 *
 * @param refundId the provider's id of the refund
 */
public record PaymentRefunded(UUID eventId, Long orderId, Long amountCents, String chargeId, String refundId,
        Instant occurredAt) implements PaymentEvent {

    public PaymentRefunded {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.positive(amountCents, "amount_cents");
        Required.field(chargeId, "charge_id");
        Required.field(refundId, "refund_id");
        Required.field(occurredAt, "occurred_at");
    }
}
