package com.example.coupon.web;

import com.example.coupon.Coupon;
import com.example.coupon.CouponStatus;

/** A coupon as the contract shows it. */
record CouponResponse(String code, CouponStatus status, Long redeemedByOrder) {

    static CouponResponse of(Coupon coupon) {
        return new CouponResponse(coupon.code(), coupon.status(), coupon.redeemedByOrder());
    }
}
