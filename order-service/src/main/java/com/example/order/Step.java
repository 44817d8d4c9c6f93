package com.example.order;

/** The downstream steps every order goes through. */
public enum Step {
    INVENTORY, COUPON, RISK
}
