package com.example.coupon.web;

import com.example.coupon.Coupon;
import com.example.coupon.CouponStatus;

import io.swagger.v3.oas.annotations.media.Schema;

/** A coupon as the contract shows it. */
@Schema(name = "Coupon")
record CouponResponse(String code, CouponStatus status,
        @Schema(nullable = true, description = "the order holding the coupon; null while ACTIVE") Long redeemedByOrder) {

    static CouponResponse of(Coupon coupon) {
        return new CouponResponse(coupon.code(), coupon.status(), coupon.redeemedByOrder());
    }
}
