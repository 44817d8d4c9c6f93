package com.example.inventory.messaging;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.boot.test.context.SpringBootTest;

import com.example.events.InventoryEvent;
import com.example.events.OrderCreated;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.InboxContract;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@FreshInfrastructure
class InventoryInboxIntegrationTests extends InboxContract {

    private static final AtomicLong ORDERS = new AtomicLong();

    @Override
    protected String queue() {
        return "order.events.inventory-service";
    }

    @Override
    protected String replyExchange() {
        return InventoryEvent.EXCHANGE;
    }

    /** One unit of a sku of its own, so that a second reservation would show as a second reserved unit. */
    @Override
    protected OrderCreated newOrder() {
        long orderId = ORDERS.incrementAndGet();
        long skuId = 1000 + orderId;
        database.execute("insert into stock (sku_id, available) values (?, 5)", skuId);
        return new OrderCreated(UUID.randomUUID(), orderId, 7L, List.of(skuId), null, Instant.now());
    }

    @Override
    protected long effects(OrderCreated order) {
        return database.count("select reserved from stock where sku_id = ?", order.skuIds().get(0));
    }

    @Override
    protected String expectedReply() {
        return "InventoryReserved";
    }
}
