package com.example.inventory.messaging;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import com.example.events.InventoryEvent;
import com.example.events.OrderCreated;
import com.example.testsupport.InboxFaultContract;
import com.example.testsupport.ServiceDatabase;

class InventoryFaultIntegrationTests extends InboxFaultContract {

    private static final AtomicLong ORDERS = new AtomicLong();

    @Override
    protected String service() {
        return "inventory-service";
    }

    @Override
    protected OrderCreated newOrder(ServiceDatabase database) {
        long orderId = ORDERS.incrementAndGet();
        long skuId = 2000 + orderId;
        database.execute("insert into stock (sku_id, available) values (?, 5)", skuId);
        return new OrderCreated(UUID.randomUUID(), orderId, 7L, List.of(skuId), null, Instant.now());
    }

    @Override
    protected long effects(ServiceDatabase database, OrderCreated order) {
        return database.count("select reserved from stock where sku_id = ?", order.skuIds().get(0));
    }

    @Override
    protected String replyExchange() {
        return InventoryEvent.EXCHANGE;
    }

    @Override
    protected String expectedReply() {
        return "InventoryReserved";
    }
}
