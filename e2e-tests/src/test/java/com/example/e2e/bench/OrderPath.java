package com.example.e2e.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BinaryOperator;

import com.example.e2e.topology.DatabaseNode;
import com.example.e2e.topology.Service;

/**
 * Where a confirmed order's time goes: when, after its 201, each step of its way was reached, read back from the
 * databases (outbox rows written and marked sent, processed_events rows, the order's last update). Each milestone is
 * taken over the orders that reached it, as percentiles of the time since the 201; the jump from one milestone to the
 * next is what that hop costs. The times are PostgreSQL's: a row written in a transaction carries the transaction's
 * start, a row marked sent the moment after the broker's confirm. A consumer may apply an event before its relay has
 * marked it sent (the broker delivers before it confirms), so two neighbouring milestones can overlap. Where the
 * server records commit timestamps (the benchmark's does: {@code track_commit_timestamp}), one milestone is a commit:
 * when the inbox's batch that wrote {@code PaymentRequested} committed, which splits that hop into the batch and the
 * relay.
 */
final class OrderPath {

    static final String ORDER_CREATED_SENT = "OrderCreated sent";
    static final String APPLIED_BY_ALL_THREE = "OrderCreated applied by inventory, coupon and risk (the last of them)";
    static final String REPLIES_SENT = "their replies sent (the last)";
    static final String PAYMENT_REQUESTED_WRITTEN = "PaymentRequested written (order-service applied the last reply)";
    static final String PAYMENT_REQUESTED_COMMITTED = "PaymentRequested committed (the inbox's batch that wrote it)";
    static final String PAYMENT_REQUESTED_SENT = "PaymentRequested sent";
    static final String PAYMENT_REQUEST_APPLIED = "PaymentRequested applied by payment-service";
    static final String PAYMENT_SUCCEEDED_WRITTEN = "PaymentSucceeded written (the provider charged)";
    static final String PAYMENT_SUCCEEDED_SENT = "PaymentSucceeded sent";
    static final String FINAL = "order final (CONFIRMED)";

    private OrderPath() {
    }

    /**
     * @param answeredAt when the client received each order's 201, by order id (only the confirmed ones count)
     * @return each milestone, in the order an order reaches them, with the percentiles of its time since the 201
     */
    static Map<String, Latencies> measure(DatabaseNode database, Map<Long, Instant> answeredAt) throws SQLException {
        String[] ids = answeredAt.keySet().stream().map(String::valueOf).toArray(String[]::new);
        Map<String, Map<Long, Instant>> reached = new LinkedHashMap<>();
        for (String milestone : List.of(ORDER_CREATED_SENT, APPLIED_BY_ALL_THREE, REPLIES_SENT, PAYMENT_REQUESTED_WRITTEN,
                PAYMENT_REQUESTED_COMMITTED, PAYMENT_REQUESTED_SENT, PAYMENT_REQUEST_APPLIED, PAYMENT_SUCCEEDED_WRITTEN,
                PAYMENT_SUCCEEDED_SENT, FINAL)) {
            reached.put(milestone, new HashMap<>());
        }
        Map<UUID, Long> orderCreated = new HashMap<>();
        Map<UUID, Long> paymentRequested = new HashMap<>();
        Map<UUID, Long> replies = new HashMap<>();
        try (Connection orders = Sql.connect(database, Service.ORDER)) {
            for (OutboxRow row : outbox(orders, ids)) {
                if (row.type().equals("OrderCreated")) {
                    orderCreated.put(row.id(), row.orderId());
                    put(reached, ORDER_CREATED_SENT, row.orderId(), row.sentAt());
                } else if (row.type().equals("PaymentRequested")) {
                    paymentRequested.put(row.id(), row.orderId());
                    put(reached, PAYMENT_REQUESTED_WRITTEN, row.orderId(), row.createdAt());
                    put(reached, PAYMENT_REQUESTED_SENT, row.orderId(), row.sentAt());
                }
            }
            try (PreparedStatement query = orders.prepareStatement(
                    "select id, updated_at from orders where status = 'CONFIRMED' and id = any(?)")) {
                query.setArray(1, orders.createArrayOf("bigint", answeredAt.keySet().toArray()));
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        put(reached, FINAL, rows.getLong("id"), rows.getObject("updated_at", OffsetDateTime.class));
                    }
                }
            }
        }
        for (Service consumer : List.of(Service.INVENTORY, Service.COUPON, Service.RISK)) {
            try (Connection connection = Sql.connect(database, consumer)) {
                processed(connection, orderCreated).forEach((order, at) -> merge(reached, APPLIED_BY_ALL_THREE, order, at,
                        OrderPath::later));
                // A consumer's first row about the order is its reply to OrderCreated.
                Map<Long, OutboxRow> firstReply = new HashMap<>();
                for (OutboxRow row : outbox(connection, ids)) {
                    firstReply.merge(row.orderId(), row, (a, b) -> a.createdAt().isAfter(b.createdAt()) ? b : a);
                }
                firstReply.forEach((order, row) -> {
                    replies.put(row.id(), order);
                    if (row.sentAt() != null) {
                        merge(reached, REPLIES_SENT, order, row.sentAt().toInstant(), OrderPath::later);
                    }
                });
            }
        }
        try (Connection orders = Sql.connect(database, Service.ORDER)) {
            // order-service writes PaymentRequested when it applies the last of the three replies.
            committed(orders, replies).forEach((order, at) -> merge(reached, PAYMENT_REQUESTED_COMMITTED, order, at,
                    OrderPath::later));
        }
        try (Connection payments = Sql.connect(database, Service.PAYMENT)) {
            processed(payments, paymentRequested).forEach((order, at) -> merge(reached, PAYMENT_REQUEST_APPLIED, order, at,
                    OrderPath::later));
            for (OutboxRow row : outbox(payments, ids)) {
                if (row.type().equals("PaymentSucceeded")) {
                    put(reached, PAYMENT_SUCCEEDED_WRITTEN, row.orderId(), row.createdAt());
                    put(reached, PAYMENT_SUCCEEDED_SENT, row.orderId(), row.sentAt());
                }
            }
        }
        Map<String, Latencies> path = new LinkedHashMap<>();
        Map<Long, Instant> confirmed = reached.get(FINAL);
        reached.forEach((milestone, times) -> {
            times.keySet().retainAll(confirmed.keySet());
            if (times.isEmpty() && milestone.equals(PAYMENT_REQUESTED_COMMITTED)) {
                return; // the server records no commit timestamps
            }
            List<Long> sinceAnswer = new ArrayList<>();
            times.forEach((order, at) -> sinceAnswer.add(Duration.between(answeredAt.get(order), at).toNanos()));
            path.put(milestone, Latencies.ofNanos(sinceAnswer.stream().mapToLong(Long::longValue).toArray()));
        });
        return path;
    }

    private record OutboxRow(UUID id, long orderId, String type, OffsetDateTime createdAt, OffsetDateTime sentAt) {
    }

    private static List<OutboxRow> outbox(Connection connection, String[] orderIds) throws SQLException {
        List<OutboxRow> found = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("""
                select id, aggregate_id, event_type, created_at, sent_at from outbox_events
                 where aggregate_id = any(?)""")) {
            query.setArray(1, connection.createArrayOf("text", orderIds));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    found.add(new OutboxRow(rows.getObject("id", UUID.class), Long.parseLong(rows.getString("aggregate_id")),
                            rows.getString("event_type"), rows.getObject("created_at", OffsetDateTime.class),
                            rows.getObject("sent_at", OffsetDateTime.class)));
                }
            }
        }
        return found;
    }

    /** When the database recorded each of the events as processed, by the order it is about. */
    private static Map<Long, Instant> processed(Connection connection, Map<UUID, Long> orderOfEvent) throws SQLException {
        Map<Long, Instant> at = new HashMap<>();
        processedAt(connection, orderOfEvent.keySet()).forEach((event, when) -> at.put(orderOfEvent.get(event), when));
        return at;
    }

    /** When this service's database recorded each of the events as processed (its processed_events row), by event. */
    static Map<UUID, Instant> processedAt(Connection connection, Collection<UUID> eventIds) throws SQLException {
        return eventTimes(connection, eventIds, "processed_at");
    }

    /** A time of each of the events' processed_events rows ({@code time}, an SQL expression), by event; null left out. */
    private static Map<UUID, Instant> eventTimes(Connection connection, Collection<UUID> eventIds, String time)
            throws SQLException {
        Map<UUID, Instant> at = new HashMap<>();
        try (PreparedStatement query = connection.prepareStatement(
                "select event_id, " + time + " as event_time from processed_events where event_id = any(?)")) {
            query.setArray(1, connection.createArrayOf("uuid", eventIds.toArray()));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    OffsetDateTime when = rows.getObject("event_time", OffsetDateTime.class);
                    if (when != null) {
                        at.put(rows.getObject("event_id", UUID.class), when.toInstant());
                    }
                }
            }
        }
        return at;
    }

    /**
     * When the transaction that recorded each of the events as processed committed, by the order it is about; empty
     * when the server does not record commit timestamps.
     */
    private static Map<Long, Instant> committed(Connection connection, Map<UUID, Long> orderOfEvent)
            throws SQLException {
        Map<Long, Instant> at = new HashMap<>();
        try (PreparedStatement setting = connection.prepareStatement("show track_commit_timestamp");
                ResultSet value = setting.executeQuery()) {
            if (!value.next() || !value.getString(1).equals("on")) {
                return at;
            }
        }
        eventTimes(connection, orderOfEvent.keySet(), "pg_xact_commit_timestamp(xmin)")
                .forEach((event, when) -> at.merge(orderOfEvent.get(event), when, OrderPath::later));
        return at;
    }

    private static void put(Map<String, Map<Long, Instant>> reached, String milestone, long order, OffsetDateTime at) {
        if (at != null) {
            reached.get(milestone).put(order, at.toInstant());
        }
    }

    private static void merge(Map<String, Map<Long, Instant>> reached, String milestone, long order, Instant at,
            BinaryOperator<Instant> pick) {
        reached.get(milestone).merge(order, at, pick);
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
