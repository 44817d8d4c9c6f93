package com.example.order;

/** The downstream steps every order goes through; payment only once the first three have said yes. */
public enum Step {
    INVENTORY, COUPON, RISK, PAYMENT
}
