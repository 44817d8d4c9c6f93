package com.example.order.messaging;

import java.util.function.Consumer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.Message;

import com.example.events.CouponNotNeeded;
import com.example.events.CouponRedeemed;
import com.example.events.CouponRejected;
import com.example.events.CouponReleased;
import com.example.events.InventoryRejected;
import com.example.events.InventoryReleased;
import com.example.events.InventoryReserved;
import com.example.events.RiskApproved;
import com.example.events.RiskRejected;
import com.example.events.inbox.EventHandler;
import com.example.events.inbox.Inbox;
import com.example.order.OrderSaga;

/**
 * One binding ({@code replies-in-0}) consumes {@code inventory.events}, {@code coupon.events} and
 * {@code risk.events} through the inbox; every reply type goes to the order's saga.
 */
@Configuration(proxyBeanMethods = false)
class ReplyBindings {

    @Bean
    Consumer<Message<byte[]>> replies(Inbox inbox) {
        return inbox::receive;
    }

    @Bean
    EventHandler<InventoryReserved> inventoryReserved(OrderSaga saga) {
        return EventHandler.of(InventoryReserved.class, saga::apply);
    }

    @Bean
    EventHandler<InventoryRejected> inventoryRejected(OrderSaga saga) {
        return EventHandler.of(InventoryRejected.class, saga::apply);
    }

    @Bean
    EventHandler<InventoryReleased> inventoryReleased(OrderSaga saga) {
        return EventHandler.of(InventoryReleased.class, saga::apply);
    }

    @Bean
    EventHandler<CouponRedeemed> couponRedeemed(OrderSaga saga) {
        return EventHandler.of(CouponRedeemed.class, saga::apply);
    }

    @Bean
    EventHandler<CouponRejected> couponRejected(OrderSaga saga) {
        return EventHandler.of(CouponRejected.class, saga::apply);
    }

    @Bean
    EventHandler<CouponNotNeeded> couponNotNeeded(OrderSaga saga) {
        return EventHandler.of(CouponNotNeeded.class, saga::apply);
    }

    @Bean
    EventHandler<CouponReleased> couponReleased(OrderSaga saga) {
        return EventHandler.of(CouponReleased.class, saga::apply);
    }

    @Bean
    EventHandler<RiskApproved> riskApproved(OrderSaga saga) {
        return EventHandler.of(RiskApproved.class, saga::apply);
    }

    @Bean
    EventHandler<RiskRejected> riskRejected(OrderSaga saga) {
        return EventHandler.of(RiskRejected.class, saga::apply);
    }
}
