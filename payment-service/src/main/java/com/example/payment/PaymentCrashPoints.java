package com.example.payment;

import com.example.service.faults.CrashPoint;

/**
 * payment-service's own crash points (docs/contract.md, "Crash points"), declared as beans by
 * {@link PaymentServiceApplication}: the two windows around the call to the provider that the reconciler closes.
 */
final class PaymentCrashPoints {

    static final CrashPoint BEFORE_CHARGE = new CrashPoint("payment.before-charge",
            "payment-service, after PROCESSING committed, before calling the provider");
    static final CrashPoint AFTER_CHARGE_BEFORE_RECORD = new CrashPoint("payment.after-charge-before-record",
            "payment-service, after the provider answered, before recording the outcome");

    private PaymentCrashPoints() {
    }
}
