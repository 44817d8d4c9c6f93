package com.example.coupon.messaging;

import java.util.function.Consumer;

import org.springframework.amqp.core.TopicExchange;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.Message;

import com.example.coupon.CouponCodes;
import com.example.coupon.Coupons;
import com.example.events.CouponEvent;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.events.inbox.EventHandler;
import com.example.events.inbox.Inbox;
import com.example.events.inbox.PoisonMessageException;

import reactor.core.publisher.Mono;

/**
 * Binds {@code order.events} (queue {@code order.events.coupon-service}, see application.yml) to the
 * inbox: an order redeems its coupon, a cancel restores it; the answers go to {@code coupon.events}.
 */
@Configuration(proxyBeanMethods = false)
class OrderEventsMessaging {

    @Bean
    Consumer<Message<byte[]>> orderEvents(Inbox inbox) {
        return inbox::receive;
    }

    /** The exchange the replies are published to; declaring an existing one again changes nothing. */
    @Bean
    TopicExchange couponEvents() {
        return new TopicExchange(CouponEvent.EXCHANGE, true, false);
    }

    @Bean
    EventHandler<OrderCreated> redeemCoupon(Coupons coupons) {
        return EventHandler.of(OrderCreated.class, order -> check(order).then(coupons.redeem(order)));
    }

    @Bean
    EventHandler<OrderCancelled> restoreCoupon(Coupons coupons) {
        return EventHandler.of(OrderCancelled.class, coupons::release);
    }

    /** order-service accepts only well-formed codes: a malformed one breaks the contract, so it is poison. */
    private static Mono<Void> check(OrderCreated order) {
        if (order.couponCode() != null && !CouponCodes.isValid(order.couponCode())) {
            return Mono.error(new PoisonMessageException("order " + order.orderId() + " has a malformed coupon_code '"
                    + order.couponCode() + "'"));
        }
        return Mono.empty();
    }
}
