package com.example.risk.messaging;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.example.events.OrderCreated;
import com.example.messaging.inbox.EventHandler;
import com.example.messaging.inbox.LockAhead;
import com.example.risk.RiskAssessor;

/**
 * What risk-service does with {@code order.events} (its inbox queue is {@code order.events.risk-service}): each
 * order is assessed once; the answer goes to {@code risk.events}.
 *
 * <p>An assessment has nothing to undo, so there is no handler for {@code OrderCancelled}, and the queue is not
 * bound to it. Should one reach it anyway, the inbox acknowledges it without effect.
 */
@Configuration(proxyBeanMethods = false)
class OrderEventHandlers {

    @Bean
    EventHandler<OrderCreated> assessRisk(RiskAssessor assessor) {
        return EventHandler.of(OrderCreated.class, assessor::assess);
    }

    /** In a batch, the users of all its new orders, before any of them is assessed. */
    @Bean
    LockAhead lockUsers(RiskAssessor assessor) {
        return events -> assessor.lockUsersOf(events.stream().filter(OrderCreated.class::isInstance)
                .map(OrderCreated.class::cast).toList());
    }
}
