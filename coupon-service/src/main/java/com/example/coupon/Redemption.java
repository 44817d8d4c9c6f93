package com.example.coupon;

/** One order's row: the coupon it asked for or holds (null for a tombstone), and why it was rejected. */
public record Redemption(long orderId, String couponCode, RedemptionStatus status, String reason) {
}
