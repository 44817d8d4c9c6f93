package com.example.events;

import java.time.Instant;
import java.util.UUID;

/**
 * The provider charged the order's amount.
 *
 * @param chargeId the provider's id of the charge
 */
public record PaymentSucceeded(UUID eventId, Long orderId, Long amountCents, String chargeId, Instant occurredAt)
        implements PaymentEvent {

    public PaymentSucceeded {
        Required.field(eventId, "event_id");
        Required.field(orderId, "order_id");
        Required.positive(amountCents, "amount_cents");
        Required.field(chargeId, "charge_id");
        Required.field(occurredAt, "occurred_at");
    }
}
