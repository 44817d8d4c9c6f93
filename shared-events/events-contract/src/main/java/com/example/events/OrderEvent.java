package com.example.events;

/** Events published by order-service on {@value #EXCHANGE}. */
public sealed interface OrderEvent extends DomainEvent permits OrderCreated, OrderCancelled, PaymentRequested {

    String EXCHANGE = "order.events";

    @Override
    default String exchange() {
        return EXCHANGE;
    }
}
