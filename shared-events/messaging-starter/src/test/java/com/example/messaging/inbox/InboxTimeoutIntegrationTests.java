package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.retry.RepublishMessageRecoverer;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;

import com.example.events.DomainEvent;
import com.example.events.EventHeaders;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.events.OrderEvent;
import com.example.messaging.relay.RelayTestApplication;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;

import reactor.core.publisher.Mono;

/**
 * Transactions that cannot finish against a database that answers: one blocked on a row lock that a busy session of
 * the test holds (PostgreSQL's lock_timeout cancels it), one whose statement runs too long (statement_timeout). Each
 * attempt times out; after {@code timeouts-before-poison} of them the event is in the dead-letter queue with the
 * reason, without effect. A lock released before then lets the event through, once; a lock held by a session idle in
 * its transaction (a frozen instance) is not the event's fault and never makes it poison. The timeouts are small here so the
 * attempts take seconds; production defaults are 10 s and 5 s.
 */
@SpringBootTest(classes = { RelayTestApplication.class, InboxTimeoutIntegrationTests.Handlers.class }, properties = {
        "spring.application.name=inbox-timeout-test",
        "service.database.statement-timeout=2s",
        "service.database.lock-timeout=500ms",
        "messaging.inbox.transaction-timeout=5s",
        "messaging.inbox.timeouts-before-poison=3",
        "messaging.inbox.backoff.initial=500ms",
        "messaging.inbox.backoff.max=500ms",
        "messaging.inbox.backoff.jitter=0" })
@FreshInfrastructure
class InboxTimeoutIntegrationTests extends ConsumerTestSupport {

    private static final String QUEUE = "order.events.inbox-timeout-test";
    private static final AtomicLong ORDERS = new AtomicLong();

    @Autowired
    DatabaseClient db;

    @Value("${test.database.jdbc-url}")
    String databaseUrl;

    @Value("${test.database.user}")
    String databaseUser;

    @Value("${test.database.password:}")
    String databasePassword;

    @Override
    protected String replyExchange() {
        return OrderEvent.EXCHANGE;
    }

    @BeforeEach
    void createCounters() {
        database.execute("create table if not exists order_counters "
                + "(order_id bigint primary key, applied integer not null default 0)");
    }

    @Test
    void theServiceSessionsCarryTheStatementAndLockTimeouts() {
        assertThat(show("statement_timeout")).isEqualTo("2s");
        assertThat(show("lock_timeout")).isEqualTo("500ms");
    }

    /**
     * The lock is held by a session that is busy (its statement runs): the event's attempts time out while the
     * database answers, and after {@code timeouts-before-poison} of them it is poison.
     */
    @Test
    void anEventWhoseTransactionKeepsWaitingForALockOfABusySessionGoesToTheDeadLetterQueueWithItsReasonAndWithoutEffect()
            throws Exception {
        OrderCreated order = newOrder();
        double retriesBefore = counter("events.retries", order.eventType());
        double poisonBefore = counter("events.poison", order.eventType());

        Message dead;
        try (RowLock lock = lock(order)) {
            lock.keepBusy();
            broker.publish(order);
            dead = awaitDeadLetter();
        }

        assertThat(dead.getMessageProperties().getMessageId()).isEqualTo(order.eventId().toString());
        String reason = dead.getMessageProperties().getHeader(EventHeaders.POISON_REASON);
        assertThat(reason).startsWith("transaction timed out 3 times while the database answered: ")
                .contains("canceling statement due to lock timeout");
        assertThat((String) dead.getMessageProperties().getHeader(RepublishMessageRecoverer.X_EXCEPTION_MESSAGE))
                .isEqualTo(reason);
        assertThat(counter("events.retries", order.eventType()) - retriesBefore).as("attempts 1 and 2").isEqualTo(2);
        assertThat(counter("events.poison", order.eventType()) - poisonBefore).isEqualTo(1);
        assertThat(applied(order.orderId())).isZero();
        assertThat(database.count("select count(*) from processed_events where event_id = ?", order.eventId()))
                .isZero();
        awaitQueueDrained(QUEUE);
    }

    /**
     * The lock is held by a session idle inside its transaction (what a frozen or stopped instance leaves): that is
     * the session's failure, not the event's. The event keeps waiting far beyond {@code timeouts-before-poison}
     * lock timeouts, never reaches the dead-letter queue, and is applied once when the session lets go.
     */
    @Test
    void anEventWaitingForALockThatAnIdleTransactionHoldsIsNotPoisonAndGoesThroughOnceItIsReleased()
            throws SQLException {
        OrderCreated order = newOrder();
        double retriesBefore = counter("events.retries", order.eventType());
        double poisonBefore = counter("events.poison", null);

        try (RowLock lock = lock(order)) {
            broker.publish(order);
            await().atMost(PATIENCE).pollInterval(Duration.ofMillis(100))
                    .until(() -> counter("events.retries", order.eventType()) - retriesBefore >= 5);
            assertThat(broker.ready(QUEUE + ".dlq")).isZero();
            assertThat(applied(order.orderId())).isZero();
        }

        await().atMost(PATIENCE).until(() -> applied(order.orderId()) == 1);
        awaitQueueDrained(QUEUE);
        assertThat(broker.ready(QUEUE + ".dlq")).isZero();
        assertThat(counter("events.poison", null) - poisonBefore).isZero();
        assertThat(applied(order.orderId())).isEqualTo(1);
    }

    @Test
    void aLockReleasedBeforeTheLastAttemptLetsTheEventThroughOnce() throws SQLException {
        OrderCreated order = newOrder();
        double retriesBefore = counter("events.retries", order.eventType());
        double poisonBefore = counter("events.poison", null);

        try (RowLock lock = lock(order)) {
            broker.publish(order);
            await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50))
                    .until(() -> counter("events.retries", order.eventType()) - retriesBefore >= 1);
        }

        await().atMost(PATIENCE).until(() -> applied(order.orderId()) == 1);
        assertThat(database.count("select count(*) from processed_events where event_id = ?", order.eventId()))
                .isEqualTo(1);
        awaitQueueDrained(QUEUE);
        assertThat(broker.ready(QUEUE + ".dlq")).isZero();
        assertThat(counter("events.poison", null) - poisonBefore).isZero();
        assertThat(applied(order.orderId())).isEqualTo(1);
    }

    @Test
    void anEventWhoseStatementAlwaysRunsTooLongGoesToTheDeadLetterQueueWithItsReason() {
        OrderCancelled cancel = new OrderCancelled(UUID.randomUUID(), ORDERS.incrementAndGet(), "test", Instant.now());

        broker.publish(cancel);

        Message dead = awaitDeadLetter();
        assertThat(dead.getMessageProperties().getMessageId()).isEqualTo(cancel.eventId().toString());
        assertThat((String) dead.getMessageProperties().getHeader(EventHeaders.POISON_REASON))
                .startsWith("transaction timed out 3 times while the database answered: ")
                .contains("canceling statement due to statement timeout");
        assertThat(database.count("select count(*) from processed_events where event_id = ?", cancel.eventId()))
                .isZero();
        awaitQueueDrained(QUEUE);
    }

    private OrderCreated newOrder() {
        long orderId = ORDERS.incrementAndGet();
        database.execute("insert into order_counters (order_id) values (?)", orderId);
        return new OrderCreated(UUID.randomUUID(), orderId, 7L, List.of(1L), null, Instant.now());
    }

    private RowLock lock(OrderCreated order) throws SQLException {
        return RowLock.on(databaseUrl, databaseUser, databasePassword, order.orderId());
    }

    private long applied(long orderId) {
        return database.count("select applied from order_counters where order_id = ?", orderId);
    }

    private Message awaitDeadLetter() {
        return await().atMost(PATIENCE).until(() -> broker.receive(QUEUE + ".dlq", Duration.ofMillis(500)),
                message -> message != null);
    }

    /** As PostgreSQL shows it to a session of the service's own pool. */
    private String show(String setting) {
        return db.sql("show " + setting).map(row -> row.get(0, String.class)).one().block();
    }

    /**
     * Another session holding {@code SELECT ... FOR UPDATE} on the order's counter until closed: idle inside its
     * transaction, or busy with a long statement after {@link #keepBusy()}.
     */
    private static final class RowLock implements AutoCloseable {

        private final Connection connection;
        private final String jdbcUrl;
        private final String user;
        private final String password;
        private Statement busy;
        private CompletableFuture<Void> running;

        private RowLock(Connection connection, String jdbcUrl, String user, String password) {
            this.connection = connection;
            this.jdbcUrl = jdbcUrl;
            this.user = user;
            this.password = password;
        }

        /** Runs a long statement in the locking transaction, so that its session is active, not idle. */
        void keepBusy() throws Exception {
            busy = connection.createStatement();
            running = CompletableFuture.runAsync(() -> {
                try {
                    busy.execute("select pg_sleep(60)");
                } catch (SQLException cancelled) {
                    // close() cancels it
                }
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                try (Connection other = DriverManager.getConnection(jdbcUrl, user, password);
                        Statement look = other.createStatement();
                        ResultSet rows = look.executeQuery("select count(*) from pg_stat_activity "
                                + "where state = 'active' and query = 'select pg_sleep(60)'")) {
                    return rows.next() && rows.getInt(1) > 0;
                }
            });
        }

        static RowLock on(String jdbcUrl, String user, String password, long orderId) throws SQLException {
            Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
            connection.setAutoCommit(false);
            try (PreparedStatement lock = connection.prepareStatement(
                    "select applied from order_counters where order_id = ? for update")) {
                lock.setLong(1, orderId);
                lock.executeQuery().close();
            }
            return new RowLock(connection, jdbcUrl, user, password);
        }

        @Override
        public void close() throws SQLException {
            try {
                if (busy != null) {
                    busy.cancel();
                    running.join();
                }
                connection.rollback();
            } finally {
                connection.close();
            }
        }
    }

    /** The service under test: one handler that updates a counter row, one whose statement outlasts its timeout. */
    @Configuration(proxyBeanMethods = false)
    static class Handlers {

        @Bean
        EventHandler<OrderCreated> countOrders(DatabaseClient db) {
            return EventHandler.of(OrderCreated.class, order -> db
                    .sql("update order_counters set applied = applied + 1 where order_id = :orderId")
                    .bind("orderId", order.orderId())
                    .then()
                    .then(Mono.<DomainEvent>empty()));
        }

        @Bean
        EventHandler<OrderCancelled> sleepTooLong(DatabaseClient db) {
            return EventHandler.of(OrderCancelled.class, cancel -> db.sql("select pg_sleep(3)")
                    .then()
                    .then(Mono.<DomainEvent>empty()));
        }
    }
}
