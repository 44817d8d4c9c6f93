package com.example.coupon.web;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/** Body of {@code PUT /coupons/{code}}. */
@Schema(name = "DefineCoupon")
record DefineCouponRequest(@NotNull @Min(1) @Max(100) Integer discountPercent) {
}
