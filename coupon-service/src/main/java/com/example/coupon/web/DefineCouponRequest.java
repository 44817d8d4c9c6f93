package com.example.coupon.web;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/** Body of {@code PUT /coupons/{code}}. */
record DefineCouponRequest(@NotNull @Min(1) @Max(100) Integer discountPercent) {
}
