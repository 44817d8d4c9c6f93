package com.example.payment.messaging;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.example.events.OrderCancelled;
import com.example.events.PaymentRequested;
import com.example.messaging.inbox.EventHandler;
import com.example.payment.Payments;

/**
 * What payment-service does with {@code order.events} (its inbox queue is {@code order.events.payment-service}): a
 * payment request records the payment for the worker to charge; a cancel fails a payment not charged yet, or has a
 * charged one refunded. The outcomes go to {@code payment.events}. OrderCreated is not this service's business, and
 * the queue is not bound to it.
 */
@Configuration(proxyBeanMethods = false)
class OrderEventHandlers {

    @Bean
    EventHandler<PaymentRequested> recordPaymentRequest(Payments payments) {
        return EventHandler.of(PaymentRequested.class, payments::request);
    }

    @Bean
    EventHandler<OrderCancelled> cancelPayment(Payments payments) {
        return EventHandler.of(OrderCancelled.class, payments::cancel);
    }
}
