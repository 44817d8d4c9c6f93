package com.example.payment;

import static com.example.payment.PaymentStatus.CREATED;
import static com.example.payment.PaymentStatus.FAILED;
import static com.example.payment.PaymentStatus.PROCESSING;
import static com.example.payment.PaymentStatus.REFUNDED;
import static com.example.payment.PaymentStatus.SUCCEEDED;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The payment's state machine, as tables: the one place that lists how a payment may move. Every status change in
 * the database is one of {@link Transition}'s rows, written as an update guarded by {@code where status = <from>}, so
 * two instances (or a worker and an event) that race for the same payment cannot both move it: the loser updates
 * nothing and does nothing more (in particular, publishes no event).
 *
 * <pre>
 *   (none)     --PaymentRequested-------------------------------> CREATED
 *   (none)     --OrderCancelled---------------------------------> FAILED    (a late PaymentRequested finds it)
 *   CREATED    --START_CHARGE (before asking: the worker's claim,
 *                  or the inbox transaction that recorded it)----> PROCESSING
 *   CREATED    --CANCEL_BEFORE_CHARGE (OrderCancelled)----------> FAILED    PaymentFailed
 *   PROCESSING --CHARGED (provider charged)---------------------> SUCCEEDED PaymentSucceeded
 *   PROCESSING --DECLINED (provider declined)-------------------> FAILED    PaymentFailed
 *   PROCESSING --NEVER_CHARGED (no charge after max attempts)---> FAILED    PaymentFailed
 *   SUCCEEDED  --REFUND (the order was cancelled)---------------> REFUNDED  PaymentRefunded
 * </pre>
 *
 * An OrderCancelled that meets a payment PROCESSING or SUCCEEDED changes no status: it sets {@code cancel_requested},
 * and the worker refunds the payment once it has SUCCEEDED (a PROCESSING one may still be declined, and then
 * there is nothing to refund). A PaymentRequested that finds a payment in any status does nothing.
 */
public final class PaymentStateMachine {

    /** Every status change a payment can make. */
    public enum Transition {
        START_CHARGE(CREATED, PROCESSING),
        CANCEL_BEFORE_CHARGE(CREATED, FAILED),
        CHARGED(PROCESSING, SUCCEEDED),
        DECLINED(PROCESSING, FAILED),
        NEVER_CHARGED(PROCESSING, FAILED),
        REFUND(SUCCEEDED, REFUNDED);

        private final PaymentStatus from;
        private final PaymentStatus to;

        Transition(PaymentStatus from, PaymentStatus to) {
            this.from = from;
            this.to = to;
        }

        public PaymentStatus from() {
            return from;
        }

        public PaymentStatus to() {
            return to;
        }
    }

    /** What an OrderCancelled does to an existing payment. */
    public enum OnCancel {
        /** Not charged and never will be: FAILED, and order-service hears that the payment step ended. */
        FAIL_BEFORE_CHARGE,
        /** The charge is in flight or done: mark the payment, the worker refunds it once it has succeeded. */
        REFUND_ONCE_CHARGED,
        /** Nothing was charged, it was refunded already, or a refund is already asked for. */
        NOTHING
    }

    /** What the worker does with a payment it claimed, by the status it was claimed in. */
    public enum Work {
        /** Ask the provider to charge (the claim moved the payment to PROCESSING first). */
        CHARGE,
        /** The outcome of the charge is unknown: ask the provider what it did under the charge key. */
        RECONCILE,
        /** The order was cancelled after the charge succeeded: refund it. */
        REFUND
    }

    // @formatter:off
    private static final Map<PaymentStatus, OnCancel> ON_CANCEL = new EnumMap<>(Map.of(
        CREATED,    OnCancel.FAIL_BEFORE_CHARGE,
        PROCESSING, OnCancel.REFUND_ONCE_CHARGED,
        SUCCEEDED,  OnCancel.REFUND_ONCE_CHARGED,
        FAILED,     OnCancel.NOTHING,
        REFUNDED,   OnCancel.NOTHING));

    private static final Map<PaymentStatus, Work> WORK = new EnumMap<>(Map.of(
        CREATED,    Work.CHARGE,
        PROCESSING, Work.RECONCILE,
        SUCCEEDED,  Work.REFUND));
    // @formatter:on

    private PaymentStateMachine() {
    }

    /** What an OrderCancelled does to this payment. */
    public static OnCancel onCancel(Payment payment) {
        if (payment.cancelRequested()) {
            return OnCancel.NOTHING;
        }
        return ON_CANCEL.get(payment.status());
    }

    /**
     * What the worker does with a payment claimed in this status. Only CREATED payments, PROCESSING ones whose
     * next attempt is due and SUCCEEDED ones with a refund asked for are claimed.
     */
    public static Work work(PaymentStatus claimedIn) {
        Work work = WORK.get(claimedIn);
        if (work == null) {
            throw new IllegalArgumentException("a " + claimedIn + " payment has no work left");
        }
        return work;
    }

    /** The statuses a payment in {@code from} may move to. */
    public static Set<PaymentStatus> next(PaymentStatus from) {
        return Arrays.stream(Transition.values()).filter(transition -> transition.from() == from)
                .map(Transition::to).collect(Collectors.toUnmodifiableSet());
    }
}
