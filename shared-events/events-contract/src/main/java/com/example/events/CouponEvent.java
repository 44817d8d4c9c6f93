package com.example.events;

/** Events published by coupon-service on {@value #EXCHANGE}. */
public sealed interface CouponEvent extends DomainEvent
        permits CouponRedeemed, CouponRejected, CouponNotNeeded, CouponReleased {

    String EXCHANGE = "coupon.events";

    @Override
    default String exchange() {
        return EXCHANGE;
    }
}
