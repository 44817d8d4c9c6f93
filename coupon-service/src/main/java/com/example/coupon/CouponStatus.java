package com.example.coupon;

/** A coupon is ACTIVE until an order redeems it; a cancelled order's coupon is ACTIVE again. */
public enum CouponStatus {
    ACTIVE, REDEEMED
}
