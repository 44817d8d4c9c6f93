package com.example.coupon.messaging;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.example.coupon.Coupons;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.messaging.inbox.EventHandler;

/**
 * What coupon-service does with {@code order.events} (its inbox queue is {@code order.events.coupon-service}):
 * an order redeems its coupon, a cancel restores it; the answers go to {@code coupon.events}.
 */
@Configuration(proxyBeanMethods = false)
class OrderEventHandlers {

    @Bean
    EventHandler<OrderCreated> redeemCoupon(Coupons coupons) {
        return EventHandler.of(OrderCreated.class, coupons::redeem);
    }

    @Bean
    EventHandler<OrderCancelled> restoreCoupon(Coupons coupons) {
        return EventHandler.of(OrderCancelled.class, coupons::release);
    }
}
