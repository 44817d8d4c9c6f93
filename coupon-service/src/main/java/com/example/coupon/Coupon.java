package com.example.coupon;

/** A coupon and the order holding it, if any. */
public record Coupon(String code, int discountPercent, Long redeemedByOrder) {

    public CouponStatus status() {
        return redeemedByOrder == null ? CouponStatus.ACTIVE : CouponStatus.REDEEMED;
    }
}
