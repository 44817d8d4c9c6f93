package com.example.risk.messaging;

import java.util.function.Consumer;

import org.springframework.amqp.core.TopicExchange;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.Message;

import com.example.events.OrderCreated;
import com.example.events.RiskEvent;
import com.example.events.inbox.EventHandler;
import com.example.events.inbox.Inbox;
import com.example.events.inbox.PoisonMessageException;
import com.example.risk.RiskAssessor;

import reactor.core.publisher.Mono;

/**
 * Binds {@code order.events} (queue {@code order.events.risk-service}, see application.yml) to the
 * inbox: each order is assessed once; the answer goes to {@code risk.events}.
 *
 * <p>An assessment has nothing to undo, so the queue is bound to {@code OrderCreated} only. Should an
 * {@code OrderCancelled} reach it anyway, the inbox acknowledges it without effect (no handler).
 */
@Configuration(proxyBeanMethods = false)
class OrderEventsMessaging {

    @Bean
    Consumer<Message<byte[]>> orderEvents(Inbox inbox) {
        return inbox::receive;
    }

    /** The exchange the replies are published to; declaring an existing one again changes nothing. */
    @Bean
    TopicExchange riskEvents() {
        return new TopicExchange(RiskEvent.EXCHANGE, true, false);
    }

    @Bean
    EventHandler<OrderCreated> assessRisk(RiskAssessor assessor) {
        return EventHandler.of(OrderCreated.class, order -> check(order).then(assessor.assess(order)));
    }

    /** An order without units or without a real user breaks the contract: poison. */
    private static Mono<Void> check(OrderCreated order) {
        if (order.skuIds().isEmpty()) {
            return Mono.error(new PoisonMessageException("order " + order.orderId() + " has no sku_ids"));
        }
        if (order.userId() <= 0) {
            return Mono.error(new PoisonMessageException("order " + order.orderId() + " has user_id " + order.userId()
                    + ", not > 0"));
        }
        return Mono.empty();
    }
}
