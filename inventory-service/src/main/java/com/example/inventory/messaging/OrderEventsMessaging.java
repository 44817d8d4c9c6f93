package com.example.inventory.messaging;

import java.util.function.Consumer;

import org.springframework.amqp.core.TopicExchange;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.Message;

import com.example.events.InventoryEvent;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.events.inbox.EventHandler;
import com.example.events.inbox.Inbox;
import com.example.events.inbox.PoisonMessageException;
import com.example.inventory.Inventory;

import reactor.core.publisher.Mono;

/**
 * Binds {@code order.events} (queue {@code order.events.inventory-service}, see application.yml) to
 * the inbox: an order reserves stock, a cancel releases it; the answers go to {@code inventory.events}.
 */
@Configuration(proxyBeanMethods = false)
class OrderEventsMessaging {

    @Bean
    Consumer<Message<byte[]>> orderEvents(Inbox inbox) {
        return inbox::receive;
    }

    /** The exchange the replies are published to; declaring an existing one again changes nothing. */
    @Bean
    TopicExchange inventoryEvents() {
        return new TopicExchange(InventoryEvent.EXCHANGE, true, false);
    }

    @Bean
    EventHandler<OrderCreated> reserveStock(Inventory inventory) {
        return EventHandler.of(OrderCreated.class, order -> check(order).then(inventory.reserve(order)));
    }

    @Bean
    EventHandler<OrderCancelled> releaseStock(Inventory inventory) {
        return EventHandler.of(OrderCancelled.class, inventory::release);
    }

    /** An order without units, or with a sku id that cannot exist, breaks the contract: poison. */
    private static Mono<Void> check(OrderCreated order) {
        if (order.skuIds().isEmpty()) {
            return Mono.error(new PoisonMessageException("order " + order.orderId() + " has no sku_ids"));
        }
        if (order.skuIds().stream().anyMatch(skuId -> skuId == null || skuId <= 0)) {
            return Mono.error(new PoisonMessageException("order " + order.orderId() + " has a sku id that is not > 0: "
                    + order.skuIds()));
        }
        return Mono.empty();
    }
}
