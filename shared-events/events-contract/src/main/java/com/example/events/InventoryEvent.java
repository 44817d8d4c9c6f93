package com.example.events;

/** Events published by inventory-service on {@value #EXCHANGE}. */
public sealed interface InventoryEvent extends DomainEvent
        permits InventoryReserved, InventoryRejected, InventoryReleased {

    String EXCHANGE = "inventory.events";

    @Override
    default String exchange() {
        return EXCHANGE;
    }
}
