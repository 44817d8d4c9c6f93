package com.example.e2e.workload;

import java.util.Optional;

/**
 * Why an intent is in the workload and how it must end. Most intents must be confirmed; some are
 * built to be rejected (out of stock, blocked user, too many units, a coupon another order holds, a payment the
 * provider declines), some race for scarce stock or a shared coupon (either end is right), some are cancelled by
 * their user while they are being paid for (cancelled, or rejected when the cancellation came too late: the
 * answer to the cancellation says which), and a few are invalid requests that the API must refuse without creating
 * anything.
 */
public enum Plan {

    CONFIRM("CONFIRMED"),
    OUT_OF_STOCK("REJECTED"),
    BLOCKED_USER("REJECTED"),
    TOO_MANY_UNITS("REJECTED"),
    COUPON_USED("REJECTED"),
    DECLINED("REJECTED"),
    CONTESTED(null),
    CANCELLED(null),
    INVALID(null);

    private final String expectedStatus;

    Plan(String expectedStatus) {
        this.expectedStatus = expectedStatus;
    }

    /** The final order status this plan requires, empty when either is right (or no order may exist). */
    public Optional<String> expectedStatus() {
        return Optional.ofNullable(expectedStatus);
    }

    /** An invalid request must be refused (a final 4xx): it never becomes an order. */
    public boolean mustFail() {
        return this == INVALID;
    }
}
