package com.example.coupon;

/**
 * One order's row: the coupon it asked for or holds (null for a tombstone), why it was rejected, and the coupon's
 * discount when it was redeemed (null unless redeemed, and for redemptions made before discounts were kept).
 */
public record Redemption(long orderId, String couponCode, RedemptionStatus status, String reason,
        Integer discountPercent) {
}
