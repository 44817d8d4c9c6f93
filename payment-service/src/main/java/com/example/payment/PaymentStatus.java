package com.example.payment;

/** Where a payment stands; {@link PaymentStateMachine} says which way it may move. */
public enum PaymentStatus {

    /** Asked for, the provider not asked yet. */
    CREATED,
    /** The provider has been asked to charge; until it answers (or is asked again) the outcome may be unknown. */
    PROCESSING,
    /** The provider charged the amount. */
    SUCCEEDED,
    /** No money moved: declined, cancelled before the charge, or the provider never charged under the key. */
    FAILED,
    /** The charge was refunded in full. */
    REFUNDED
}
