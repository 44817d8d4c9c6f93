package com.example.order;

/** The state of one downstream step (inventory, coupon, risk, payment) of an order. */
public enum StepStatus {
    PENDING, OK, REJECTED, NOT_NEEDED, COMPENSATED,
    /** Had not answered when the order's deadline passed; a late answer still moves it (see OrderStateMachine). */
    TIMED_OUT,
    /** The payment's compensation: the charge was refunded in full. */
    REFUNDED
}
