package com.example.messaging.relay;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.CouponNotNeeded;
import com.example.events.DomainEvent;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.events.RiskApproved;
import com.example.messaging.outbox.OutboundEvent;
import com.example.messaging.outbox.OutboxWriter;

/** Writes events the way a service does (OutboxWriter inside a transaction) and reads the rows back. */
final class TestOutbox {

    private final OutboxWriter writer;
    private final TransactionalOperator transactions;
    private final DatabaseClient db;

    TestOutbox(OutboxWriter writer, TransactionalOperator transactions, DatabaseClient db) {
        this.writer = writer;
        this.transactions = transactions;
        this.db = db;
    }

    static OrderCreated created(long orderId) {
        return new OrderCreated(UUID.randomUUID(), orderId, 42L, List.of(1001L, 1002L), null, now());
    }

    /** The {@code n}-th follow-up event of an order; the reason says which, so order can be checked. */
    static OrderCancelled cancelled(long orderId, int n) {
        return new OrderCancelled(UUID.randomUUID(), orderId, "event " + n, now());
    }

    /** An event on risk.events. */
    static RiskApproved riskApproved(long orderId) {
        return new RiskApproved(UUID.randomUUID(), orderId, now());
    }

    /** An event on coupon.events. */
    static CouponNotNeeded couponNotNeeded(long orderId) {
        return new CouponNotNeeded(UUID.randomUUID(), orderId, now());
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    void write(DomainEvent event) {
        write(event, null);
    }

    void write(DomainEvent event, String traceparent) {
        transactions.transactional(writer.append(OutboundEvent.of(event).causedBy(traceparent))).block();
    }

    long count(String where) {
        return db.sql("select count(*) from outbox_events where " + where).map(r -> r.get(0, Long.class)).one()
                .block();
    }

    /** The refusals recorded for one row. */
    long attempts(String id) {
        return db.sql("select attempts from outbox_events where id = :id::uuid").bind("id", id)
                .map(r -> r.get(0, Integer.class)).one().block();
    }

    void execute(String sql) {
        db.sql(sql).fetch().rowsUpdated().block();
    }
}
