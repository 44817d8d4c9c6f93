package com.example.payment.web;

import java.time.Instant;

import com.example.payment.Payment;
import com.example.payment.PaymentStatus;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * An order's payment as the contract shows it.
 *
 * @param amountCents null only for a payment cancelled before it was asked for
 * @param chargeId    the provider's charge, once it charged
 * @param refundId    the provider's refund, once it refunded
 * @param updatedAt   when the status last changed
 */
@Schema(name = "Payment")
record PaymentResponse(long orderId, PaymentStatus status, @Schema(nullable = true) Long amountCents,
        @Schema(nullable = true) String chargeId, @Schema(nullable = true) String refundId, Instant updatedAt) {

    static PaymentResponse of(Payment payment) {
        return new PaymentResponse(payment.orderId(), payment.status(), payment.amountCents(), payment.chargeId(),
                payment.refundId(), payment.updatedAt());
    }
}
