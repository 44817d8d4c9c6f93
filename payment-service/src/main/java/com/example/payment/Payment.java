package com.example.payment;

import java.time.Instant;

/**
 * One order's payment, as stored.
 *
 * @param userId          who pays; null for a payment cancelled before it was asked for
 * @param amountCents     what to charge; null only for a payment cancelled before it was asked for
 * @param chargeKey       the Idempotency-Key of every charge request and look-up for this payment
 * @param chargeId        the provider's charge, once it charged
 * @param refundKey       the Idempotency-Key of the refund, once the order was cancelled
 * @param refundId        the provider's refund, once it refunded
 * @param cancelRequested the order was cancelled while the charge was in flight or done: refund once it succeeded
 * @param failureReason   why no money moved (FAILED only)
 * @param attempts        tries of the current step (the charge, then the refund), counting the one in flight
 * @param nextAttemptAt   when the worker may take the payment up again
 * @param updatedAt       when the status last changed
 */
public record Payment(long orderId, Long userId, Long amountCents, PaymentStatus status, String chargeKey,
        String chargeId, String refundKey, String refundId, boolean cancelRequested, String failureReason,
        int attempts, Instant nextAttemptAt, Instant createdAt, Instant updatedAt) {

    /**
     * The Idempotency-Key of the order's charge: derived from the order, never random, so that any instance, after
     * any crash, asks the provider about the same charge with the same key (and a second request under it can only
     * return the first charge, never make another).
     */
    public static String chargeKey(long orderId) {
        return "payment-" + orderId + "-charge";
    }

    /** The Idempotency-Key of the order's refund, derived from the order for the same reason as the charge's. */
    public static String refundKey(long orderId) {
        return "payment-" + orderId + "-refund";
    }

    /** What the provider shows on the charge, so that it can be traced back to the order. */
    public static String reference(long orderId) {
        return "order-" + orderId;
    }
}
