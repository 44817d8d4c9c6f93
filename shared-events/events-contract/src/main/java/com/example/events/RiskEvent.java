package com.example.events;

/** Events published by risk-service on {@value #EXCHANGE}. */
public sealed interface RiskEvent extends DomainEvent permits RiskApproved, RiskRejected {

    String EXCHANGE = "risk.events";

    @Override
    default String exchange() {
        return EXCHANGE;
    }
}
