package com.example.events;

/** Events published by payment-service on {@value #EXCHANGE}. */
public sealed interface PaymentEvent extends DomainEvent permits PaymentSucceeded, PaymentFailed, PaymentRefunded {

    String EXCHANGE = "payment.events";

    @Override
    default String exchange() {
        return EXCHANGE;
    }
}
