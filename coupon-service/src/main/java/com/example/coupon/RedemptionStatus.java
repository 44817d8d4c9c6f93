package com.example.coupon;

/** What coupon-service did for one order (see the redemptions table). */
public enum RedemptionStatus {
    REDEEMED, REJECTED, RELEASED, CANCELLED
}
