package com.example.risk.messaging;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import com.example.events.OrderCreated;
import com.example.events.RiskEvent;
import com.example.testsupport.InboxFaultContract;
import com.example.testsupport.ServiceDatabase;

class RiskFaultIntegrationTests extends InboxFaultContract {

    private static final AtomicLong ORDERS = new AtomicLong();

    @Override
    protected String service() {
        return "risk-service";
    }

    @Override
    protected OrderCreated newOrder(ServiceDatabase database) {
        long orderId = ORDERS.incrementAndGet();
        return new OrderCreated(UUID.randomUUID(), orderId, 5000 + orderId, List.of(1L), null, Instant.now());
    }

    @Override
    protected long effects(ServiceDatabase database, OrderCreated order) {
        return database.count("select count(*) from assessments where order_id = ?", order.orderId());
    }

    @Override
    protected String replyExchange() {
        return RiskEvent.EXCHANGE;
    }

    @Override
    protected String expectedReply() {
        return "RiskApproved";
    }
}
