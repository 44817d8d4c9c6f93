package com.example.e2e.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import com.example.events.EventJson;
import com.example.events.OrderCreated;
import com.example.messaging.outbox.OutboxWriter;

/**
 * The statements of order-service's order transaction (OrderRepository.insertIfAbsent, OutboxWriter.append) over
 * plain JDBC on one connection: insert the order with its lines and its first history row, then its OrderCreated
 * outbox row with the relay's notification, then commit. Prepared once per connection, as a driver's statement
 * cache would.
 */
final class OrderTransaction implements AutoCloseable {

    private static final String INSERT_ORDER = """
            with placed as (
                insert into orders (user_id, idempotency_key, request_fingerprint, coupon_code)
                values (?, ?, ?, null)
                on conflict (user_id, idempotency_key) do nothing
                returning id, status, created_at, inventory_step, coupon_step, risk_step),
            lines as (
                insert into order_lines (order_id, line_no, sku_id)
                select placed.id, line.no, line.sku_id
                  from placed, unnest(?::bigint[]) with ordinality as line(sku_id, no)),
            history as (
                insert into order_history (order_id, event_id, event_type, applied, status, inventory_step,
                                           coupon_step, risk_step)
                select id, ?, 'OrderCreated', true, status, inventory_step, coupon_step, risk_step from placed)
            select id, created_at from placed""";
    /** The outbox row and its notification in one statement, as OutboxWriter writes them. */
    private static final String APPEND_OUTBOX = """
            with appended as (
                insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload, traceparent)
                values (?, ?, ?, ?, ?, ?::jsonb, null)
                returning exchange)
            select pg_notify('%s', exchange) from appended""".formatted(OutboxWriter.CHANNEL);
    /** A backlog row: parked, and no notification. */
    private static final String PARK_OUTBOX = """
            insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload, traceparent,
                                       parked_at)
            values (?, ?, ?, ?, ?, ?::jsonb, null, now())""";

    private final Connection connection;
    private final boolean parked;
    private final PreparedStatement insertOrder;
    private final PreparedStatement insertOutbox;

    /**
     * @param parked write the outbox row parked and do not notify: a backlog the relay leaves alone until
     *               it is released (see {@link RelayDrain})
     */
    OrderTransaction(Connection connection, boolean parked) throws SQLException {
        this.connection = connection;
        this.parked = parked;
        connection.setAutoCommit(false);
        this.insertOrder = connection.prepareStatement(INSERT_ORDER);
        this.insertOutbox = connection.prepareStatement(parked ? PARK_OUTBOX : APPEND_OUTBOX);
    }

    /** One order of a fresh intent with one to three skus; returns the order id. */
    long run(long userId) throws SQLException {
        List<Long> skuIds = skus();
        insertOrder.setLong(1, userId);
        insertOrder.setObject(2, UUID.randomUUID());
        insertOrder.setString(3, fingerprint());
        insertOrder.setArray(4, connection.createArrayOf("bigint", skuIds.toArray()));
        UUID eventId = UUID.randomUUID();
        insertOrder.setObject(5, eventId);
        long orderId;
        Instant createdAt;
        try (ResultSet inserted = insertOrder.executeQuery()) {
            if (!inserted.next()) {
                throw new IllegalStateException("a fresh intent of user " + userId + " already had an order");
            }
            orderId = inserted.getLong(1);
            createdAt = inserted.getObject(2, OffsetDateTime.class).toInstant();
        }
        OrderCreated event = new OrderCreated(eventId, orderId, userId, skuIds, null, createdAt);
        insertOutbox.setObject(1, event.eventId());
        insertOutbox.setString(2, event.aggregateType());
        insertOutbox.setString(3, event.aggregateId());
        insertOutbox.setString(4, event.eventType());
        insertOutbox.setString(5, event.exchange());
        insertOutbox.setString(6, EventJson.write(event));
        insertOutbox.execute();
        connection.commit();
        return orderId;
    }

    /** The JSON body of an OrderCreated like those this class writes: the size the broker ceiling publishes. */
    static String samplePayload() {
        return EventJson.write(new OrderCreated(UUID.randomUUID(), 1_000_000L, 1_000_000L, List.of(9001L, 9002L), null,
                Instant.now()));
    }

    private static List<Long> skus() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int count = 1 + random.nextInt(3);
        return random.longs(count, BenchOrders.FIRST_SKU, BenchOrders.FIRST_SKU + BenchOrders.SKUS).boxed().toList();
    }

    private static String fingerprint() {
        byte[] bytes = new byte[32];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
