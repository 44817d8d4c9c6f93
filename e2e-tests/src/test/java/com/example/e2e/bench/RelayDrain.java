package com.example.e2e.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import org.awaitility.Awaitility;

import com.example.e2e.topology.DatabaseNode;
import com.example.e2e.topology.Service;
import com.example.events.OrderEvent;
import com.example.messaging.outbox.OutboxWriter;

/**
 * The relay drain: a backlog of orders whose OrderCreated rows wait in order-service's outbox, and the time
 * order-service's running relay takes until the last of them is confirmed by the broker and marked sent.
 * The backlog is written parked, which the relay leaves alone, and released at once in one transaction
 * (as an operator requeueing parked rows would), so that the relay meets the whole backlog warm and at
 * once instead of as it is written. Parked rows are outside the relay's index of unsent rows: the backlog
 * can wait there while other phases run.
 */
final class RelayDrain {

    private static final Duration PATIENCE = Duration.ofMinutes(5);
    private static final String UNSENT = "select count(*) from outbox_events where sent_at is null and parked_at is null";
    private static final String PARKED = "select count(*) from outbox_events where parked_at is not null";

    private RelayDrain() {
    }

    /** Writes the backlog, parked. */
    static void prepare(DatabaseNode database, BenchOrders orders, int backlog, int connections) throws Exception {
        try (Connection connection = Sql.connect(database, Service.ORDER)) {
            if (Sql.count(connection, PARKED) > 0) {
                throw new IllegalStateException("order-service's outbox has parked rows: the backlog would not be alone");
            }
        }
        writeBacklog(database, orders, backlog, connections);
    }

    /** Releases the backlog once everything else in the outbox has left, and waits until the relay has sent it all. */
    static Throughput measure(DatabaseNode database, int backlog) throws Exception {
        try (Connection connection = Sql.connect(database, Service.ORDER)) {
            // What earlier phases wrote leaves first: the backlog must be the relay's only work.
            Awaitility.await("order-service's outbox is empty but for the backlog").atMost(PATIENCE)
                    .until(() -> Sql.count(connection, UNSENT) == 0);
            // Statistics that know the backlog, as autovacuum's analyze would have by the time a real one is this big.
            // (Before the claim query was rewritten, it planned badly without them: see OutboxStore.claim.)
            try (Statement analyze = connection.createStatement()) {
                analyze.execute("analyze outbox_events");
            }
            connection.setAutoCommit(false);
            try (Statement release = connection.createStatement()) {
                int released = release.executeUpdate("update outbox_events set parked_at = null, next_attempt_at = now()"
                        + " where parked_at is not null and sent_at is null");
                if (released != backlog) {
                    throw new IllegalStateException("released " + released + " rows of a backlog of " + backlog);
                }
                release.execute("select pg_notify('" + OutboxWriter.CHANNEL + "', '" + OrderEvent.EXCHANGE + "')");
            }
            Instant released = Instant.now();
            connection.commit();
            connection.setAutoCommit(true);
            Awaitility.await("the relay drains the backlog").atMost(PATIENCE).pollInterval(Duration.ofMillis(20))
                    .until(() -> Sql.count(connection, UNSENT) == 0);
            Instant lastSent;
            try (Statement query = connection.createStatement();
                    ResultSet rows = query.executeQuery("select max(sent_at) from outbox_events")) {
                rows.next();
                lastSent = rows.getObject(1, OffsetDateTime.class).toInstant();
            }
            return new Throughput(backlog, Duration.between(released, lastSent).toNanos() / 1e9);
        }
    }

    private static void writeBacklog(DatabaseNode database, BenchOrders orders, int backlog,
            int connections) throws Exception {
        List<Thread> writers = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        for (int w = 0; w < connections; w++) {
            int share = backlog / connections + (w < backlog % connections ? 1 : 0);
            Thread writer = new Thread(() -> {
                try (OrderTransaction transaction = new OrderTransaction(Sql.connect(database, Service.ORDER), true)) {
                    for (int i = 0; i < share; i++) {
                        transaction.run(orders.nextUser());
                    }
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "bench-backlog-" + w);
            writers.add(writer);
            writer.start();
        }
        for (Thread writer : writers) {
            writer.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }
}
