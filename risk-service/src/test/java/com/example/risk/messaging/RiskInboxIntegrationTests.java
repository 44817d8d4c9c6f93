package com.example.risk.messaging;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.boot.test.context.SpringBootTest;

import com.example.events.OrderCreated;
import com.example.events.RiskEvent;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.InboxContract;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@FreshInfrastructure
class RiskInboxIntegrationTests extends InboxContract {

    private static final AtomicLong ORDERS = new AtomicLong();

    @Override
    protected String queue() {
        return "order.events.risk-service";
    }

    @Override
    protected String replyExchange() {
        return RiskEvent.EXCHANGE;
    }

    /** A user of its own, so no rate limit applies. */
    @Override
    protected OrderCreated newOrder() {
        long orderId = ORDERS.incrementAndGet();
        return new OrderCreated(UUID.randomUUID(), orderId, 5000 + orderId, List.of(1L), null, Instant.now());
    }

    @Override
    protected long effects(OrderCreated order) {
        return database.count("select count(*) from assessments where order_id = ?", order.orderId());
    }

    @Override
    protected String expectedReply() {
        return "RiskApproved";
    }
}
