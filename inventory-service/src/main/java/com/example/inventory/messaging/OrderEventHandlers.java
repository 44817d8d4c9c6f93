package com.example.inventory.messaging;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.inventory.Inventory;
import com.example.messaging.inbox.EventHandler;
import com.example.messaging.inbox.LockAhead;

/**
 * What inventory-service does with {@code order.events} (its inbox queue is {@code order.events.inventory-service}):
 * an order reserves stock, a cancel releases it; the answers go to {@code inventory.events}.
 */
@Configuration(proxyBeanMethods = false)
class OrderEventHandlers {

    @Bean
    EventHandler<OrderCreated> reserveStock(Inventory inventory) {
        return EventHandler.of(OrderCreated.class, inventory::reserve);
    }

    /** In a batch, the stock of every sku its new orders name, before any of them is reserved. */
    @Bean
    LockAhead lockStock(Inventory inventory) {
        return events -> inventory.lockStockFor(events.stream().filter(OrderCreated.class::isInstance)
                .map(OrderCreated.class::cast).toList());
    }

    @Bean
    EventHandler<OrderCancelled> releaseStock(Inventory inventory) {
        return EventHandler.of(OrderCancelled.class, inventory::release);
    }
}
