package com.example.paymentsimulator;

/** What a charge or refund request came to. */
public sealed interface Outcome<T> {

    /** This request made it. */
    record Made<T>(T value) implements Outcome<T> {
    }

    /** An earlier request with the same idempotency key and the same request made it: the same answer again. */
    record Replayed<T>(T value) implements Outcome<T> {
    }

    /** Nothing was made, for the reason given. */
    record Refused<T>(Refusal reason, String detail) implements Outcome<T> {
    }

    enum Refusal {
        /** The idempotency key was used before for a different request. */
        KEY_REUSED,
        NO_SUCH_CHARGE,
        /** The charge has a refund already, made under another idempotency key. */
        ALREADY_REFUNDED,
        /** A declined charge moved no money: there is nothing to refund. */
        CHARGE_DECLINED
    }
}
