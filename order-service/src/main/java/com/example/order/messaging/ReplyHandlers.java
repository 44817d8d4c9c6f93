package com.example.order.messaging;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.example.events.CouponEvent;
import com.example.events.InventoryEvent;
import com.example.events.PaymentEvent;
import com.example.events.RiskEvent;
import com.example.messaging.inbox.EventHandler;
import com.example.messaging.inbox.LockAhead;
import com.example.order.OrderSaga;

/**
 * Every reply of inventory, coupon, risk and payment goes to the order's saga. One handler per producer's family:
 * the inbox subscribes order-service to {@code inventory.events}, {@code coupon.events}, {@code risk.events} and
 * {@code payment.events} (one queue each, {@code <exchange>.order-service}).
 */
@Configuration(proxyBeanMethods = false)
class ReplyHandlers {

    @Bean
    EventHandler<InventoryEvent> inventoryReplies(OrderSaga saga) {
        return EventHandler.of(InventoryEvent.class, saga::apply);
    }

    @Bean
    EventHandler<CouponEvent> couponReplies(OrderSaga saga) {
        return EventHandler.of(CouponEvent.class, saga::apply);
    }

    @Bean
    EventHandler<RiskEvent> riskReplies(OrderSaga saga) {
        return EventHandler.of(RiskEvent.class, saga::apply);
    }

    @Bean
    EventHandler<PaymentEvent> paymentReplies(OrderSaga saga) {
        return EventHandler.of(PaymentEvent.class, saga::apply);
    }

    /**
     * A batch of replies, whatever their producers, locks and reads all its orders first, in one statement, and
     * writes what its replies did in one more, before it commits ({@link OrderSaga#lockAhead}). Without it
     * ({@code orders.replies.read-ahead=false}, a switch for measuring what it saves) each reply locks and reads its
     * own order and writes it, two statements per reply.
     */
    @Bean
    @ConditionalOnBooleanProperty(name = "orders.replies.read-ahead", matchIfMissing = true)
    LockAhead lockOrders(OrderSaga saga) {
        return saga::lockAhead;
    }
}
