package com.example.e2e.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import com.example.events.EventJson;
import com.example.events.OrderCreated;
import com.example.messaging.outbox.OutboxWriter;

/**
 * The statement of order-service's order transaction (OrderRepository.insertIfAbsent with OutboxWriter.appendWith)
 * over plain JDBC on one connection in auto-commit: the order with its lines, its first history row, its OrderCreated
 * outbox row (the new order's id written into it) and the relay's notification, one statement that commits on its
 * own; like the service's, it would answer the intent's existing order on a conflict (read only then, and here only
 * its id, as the intents are fresh). Prepared once per connection, as a driver's statement cache would.
 */
final class OrderTransaction implements AutoCloseable {

    /**
     * The order's steps, then the outbox row, parked ({@code parked_at} set) or not, then the notification, left out
     * for a parked row: the relay leaves those alone until they are released.
     */
    private static final String PLACE_ORDER = """
            with placed as (
                insert into orders (user_id, idempotency_key, request_fingerprint, coupon_code, created_at,
                                    updated_at)
                values (?, ?, ?, null, ?, ?)
                on conflict (user_id, idempotency_key) do nothing
                returning id, status, created_at, inventory_step, coupon_step, risk_step, payment_step),
            lines as (
                insert into order_lines (order_id, line_no, sku_id)
                select placed.id, line.no, line.sku_id
                  from placed, unnest(?::bigint[]) with ordinality as line(sku_id, no)),
            history as (
                insert into order_history (order_id, event_id, event_type, applied, status, inventory_step,
                                           coupon_step, risk_step, payment_step)
                select id, ?, 'OrderCreated', true, status, inventory_step, coupon_step, risk_step, payment_step
                  from placed),
            answer as (
                select placed.id from placed
                union all
                select o.id from orders o
                 where o.user_id = ? and o.idempotency_key = ? and not exists (select from placed)),
            outbox_appended as (
                insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload,
                                           traceparent, parked_at)
                select ?, ?, placed.id::text, ?, ?, jsonb_set(?::jsonb, '{order_id}', to_jsonb(placed.id)), null,
                       case when ? then now() end
                  from placed
                returning exchange, parked_at)
            select answer.id
              from answer
             cross join (select count(pg_notify('%s', exchange)) as notified
                           from (select distinct exchange from outbox_appended where parked_at is null) as exchanges)
                        as notification""".formatted(OutboxWriter.CHANNEL);

    private final Connection connection;
    private final boolean parked;
    private final PreparedStatement placeOrder;

    /**
     * @param parked write the outbox row parked and do not notify: a backlog the relay leaves alone until
     *               it is released (see {@link RelayDrain})
     */
    OrderTransaction(Connection connection, boolean parked) throws SQLException {
        this.connection = connection;
        this.parked = parked;
        connection.setAutoCommit(true);
        this.placeOrder = connection.prepareStatement(PLACE_ORDER);
    }

    /** One order of a fresh intent with one to three skus; returns the order id. */
    long run(long userId) throws SQLException {
        List<Long> skuIds = skus();
        Instant createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        OrderCreated event = new OrderCreated(UUID.randomUUID(), 0L, userId, skuIds, null, createdAt);
        OffsetDateTime created = createdAt.atOffset(ZoneOffset.UTC);
        UUID key = UUID.randomUUID();
        placeOrder.setLong(1, userId);
        placeOrder.setObject(2, key);
        placeOrder.setString(3, fingerprint());
        placeOrder.setObject(4, created);
        placeOrder.setObject(5, created);
        placeOrder.setArray(6, connection.createArrayOf("bigint", skuIds.toArray()));
        placeOrder.setObject(7, event.eventId());
        placeOrder.setLong(8, userId);
        placeOrder.setObject(9, key);
        placeOrder.setObject(10, event.eventId());
        placeOrder.setString(11, event.aggregateType());
        placeOrder.setString(12, event.eventType());
        placeOrder.setString(13, event.exchange());
        placeOrder.setString(14, EventJson.write(event));
        placeOrder.setBoolean(15, parked);
        try (ResultSet placed = placeOrder.executeQuery()) {
            if (!placed.next()) {
                throw new IllegalStateException("a fresh intent of user " + userId + " already had an order");
            }
            return placed.getLong(1);
        }
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
