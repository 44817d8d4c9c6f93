package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.DomainEvent;
import com.example.events.EventHeaders;
import com.example.events.EventJson;
import com.example.events.OrderCreated;
import com.example.events.OrderEvent;
import com.example.messaging.outbox.OutboundEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.testsupport.FreshInfrastructure;

import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.spi.ConnectionFactory;
import reactor.core.publisher.Flux;

/**
 * The relay in its normal life: events written concurrently by many transactions leave once each,
 * carrying the contract's properties. Polling is set to an hour, so every wake-up here comes from
 * LISTEN/NOTIFY (or from the relay continuing after a batch that found work).
 */
@SpringBootTest(properties = "messaging.relay.poll-interval=1h")
@FreshInfrastructure
class RelayIntegrationTests {

    @Autowired
    OutboxWriter writer;

    @Autowired
    ConnectionFactory connectionFactory;

    @Autowired
    AmqpAdmin admin;

    @Autowired
    RabbitTemplate rabbit;

    @Autowired
    MeterRegistry meters;

    @Autowired
    HealthIndicator outboxHealthIndicator;

    @Value("${test.database.jdbc-url}")
    String jdbcUrl;

    @Value("${test.database.user}")
    String user;

    @Value("${test.database.password}")
    String password;

    TransactionalOperator transactions;
    TestOutbox outbox;

    @BeforeEach
    void setUp() {
        transactions = TransactionalOperator.create(new R2dbcTransactionManager(connectionFactory));
        outbox = new TestOutbox(writer, transactions, DatabaseClient.create(connectionFactory));
    }

    @Test
    void thousandEventsWrittenConcurrentlyArriveOnceEachWithTheContractsPropertiesAndHeaders() {
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            publishesEveryEventOnceWithTheContractsPropertiesAndHeaders(probe);
        }
    }

    private void publishesEveryEventOnceWithTheContractsPropertiesAndHeaders(QueueProbe probe) {
        double publishedBefore = meters.counter(RelayMetrics.PUBLISHED).count();
        Map<String, DomainEvent> written = new ConcurrentHashMap<>();
        Map<String, String> traceparents = new ConcurrentHashMap<>();

        Flux.range(1, 1000).flatMap(i -> {
            DomainEvent event = i % 2 == 0 ? TestOutbox.created(i) : TestOutbox.cancelled(i, 1);
            String traceparent = i % 3 == 0 ? "00-%032x-%016x-01".formatted(i + 1, i + 1) : null;
            written.put(event.eventId().toString(), event);
            if (traceparent != null) {
                traceparents.put(event.eventId().toString(), traceparent);
            }
            return transactions.transactional(writer.append(OutboundEvent.of(event).causedBy(traceparent)));
        }, 32).blockLast();

        await().atMost(Duration.ofSeconds(60)).until(() -> probe.drain().size() >= 1000);
        await().atMost(Duration.ofSeconds(10)).until(() -> outbox.count("sent_at is null") == 0);

        List<Message> messages = probe.drain();
        assertThat(messages).hasSize(1000);
        Map<String, Message> byId = messages.stream()
                .collect(Collectors.toMap(m -> m.getMessageProperties().getMessageId(), Function.identity()));
        assertThat(byId).containsOnlyKeys(written.keySet());
        for (Message message : messages) {
            MessageProperties properties = message.getMessageProperties();
            DomainEvent event = written.get(properties.getMessageId());
            assertThat(properties.getReceivedExchange()).isEqualTo(OrderEvent.EXCHANGE);
            assertThat(properties.getReceivedRoutingKey()).isEqualTo(event.eventType());
            assertThat(properties.getReceivedDeliveryMode()).isEqualTo(MessageDeliveryMode.PERSISTENT);
            assertThat(properties.getContentType()).isEqualTo("application/json");
            assertThat(properties.<String>getHeader(EventHeaders.EVENT_TYPE)).isEqualTo(event.eventType());
            assertThat(properties.<String>getHeader(EventHeaders.AGGREGATE_TYPE)).isEqualTo("order");
            assertThat(properties.<String>getHeader(EventHeaders.AGGREGATE_ID)).isEqualTo(event.aggregateId());
            assertThat(properties.<Integer>getHeader(EventHeaders.SCHEMA_VERSION)).isEqualTo(1);
            assertThat(Instant.parse(properties.getHeader(EventHeaders.OCCURRED_AT))).isEqualTo(event.occurredAt());
            assertThat(properties.<String>getHeader(EventHeaders.TRACEPARENT))
                    .isEqualTo(traceparents.get(properties.getMessageId()));
            assertThat(EventJson.read(event.eventType(), message.getBody())).isEqualTo(event);
        }
        assertThat(meters.counter(RelayMetrics.PUBLISHED).count() - publishedBefore).isEqualTo(1000);
        assertThat(meters.timer(RelayMetrics.PUBLISH_LATENCY).count()).isGreaterThanOrEqualTo(1000);
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(outboxHealthIndicator.health().getStatus()).isEqualTo(Status.UP);
            assertThat(meters.get(RelayMetrics.PENDING_ROWS).gauge().value()).isZero();
        });
    }

    /**
     * One transaction, one notification, five events of one order: the relay sends them one cycle after the other
     * (each waits for the previous one's confirm) without waiting for a poll, because each claimed row says that a
     * later one waits behind it.
     */
    @Test
    void anOrdersEventsWrittenTogetherLeaveInOrderOnOneNotification() {
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            long orderId = 777_001;
            List<DomainEvent> events = new ArrayList<>();
            events.add(TestOutbox.created(orderId));
            for (int n = 1; n <= 4; n++) {
                events.add(TestOutbox.cancelled(orderId, n));
            }
            transactions.transactional(Flux.fromIterable(events)
                    .concatMap(event -> writer.append(OutboundEvent.of(event))).then()).block();

            await().atMost(Duration.ofSeconds(20)).until(() -> probe.drain().size() >= events.size());

            assertThat(probe.drain()).extracting(message -> message.getMessageProperties().getMessageId())
                    .containsExactlyElementsOf(events.stream().map(event -> event.eventId().toString()).toList());
        }
    }

    /**
     * Events appended in one statement ({@link OutboxWriter#appendAll}, as an inbox batch writes its replies) leave
     * in the order given, each with its own trace context or none, woken by the statement's notification (polling is
     * an hour here).
     */
    @Test
    void eventsAppendedInOneStatementLeaveInTheOrderGivenWithTheirOwnTraceContext() {
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            long orderId = 777_002;
            String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
            List<OutboundEvent> events = new ArrayList<>();
            events.add(OutboundEvent.of(TestOutbox.created(orderId)).causedBy(traceparent));
            for (int n = 1; n <= 4; n++) {
                events.add(OutboundEvent.of(TestOutbox.cancelled(orderId, n)));
            }
            transactions.transactional(writer.appendAll(events)).block();

            await().atMost(Duration.ofSeconds(20)).until(() -> probe.drain().size() >= events.size());

            List<Message> received = probe.drain();
            assertThat(received).extracting(message -> message.getMessageProperties().getMessageId())
                    .containsExactlyElementsOf(events.stream().map(event -> event.id().toString()).toList());
            assertThat(received.get(0).getMessageProperties().<String>getHeader(EventHeaders.TRACEPARENT))
                    .isEqualTo(traceparent);
            assertThat(received.subList(1, received.size())).allSatisfy(message -> assertThat(
                    message.getMessageProperties().<String>getHeader(EventHeaders.TRACEPARENT)).isNull());
        }
    }

    /**
     * An event appended by the statement that inserts its aggregate ({@link OutboxWriter#appendWith}), outside any
     * transaction: it leaves on the statement's notification (polling is an hour here) carrying the id the database
     * gave the aggregate, in its header and its body; a statement whose insert meets a conflict answers nothing and
     * appends nothing.
     */
    @Test
    void anEventAppendedByTheStatementThatInsertsItsAggregateCarriesTheIdTheDatabaseGaveIt() {
        outbox.execute("""
                create table if not exists test_aggregates (
                    id bigint generated always as identity primary key, name text not null unique)""");
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            OrderCreated event = TestOutbox.created(0);
            Long id = insertAggregate("first", OutboundEvent.of(event).causedBy(traceparent));
            assertThat(id).isNotNull().isPositive();

            await().atMost(Duration.ofSeconds(20)).until(() -> probe.drain().size() >= 1);
            Message message = probe.drain().get(0);
            MessageProperties properties = message.getMessageProperties();
            assertThat(properties.getMessageId()).isEqualTo(event.eventId().toString());
            assertThat(properties.<String>getHeader(EventHeaders.AGGREGATE_ID)).isEqualTo(id.toString());
            assertThat(properties.<String>getHeader(EventHeaders.TRACEPARENT)).isEqualTo(traceparent);
            assertThat(EventJson.read(event.eventType(), message.getBody())).isEqualTo(new OrderCreated(
                    event.eventId(), id, event.userId(), event.skuIds(), event.couponCode(), event.occurredAt()));

            OrderCreated again = TestOutbox.created(0);
            assertThat(insertAggregate("first", OutboundEvent.of(again))).as("a conflict answers nothing").isNull();
            assertThat(outbox.count("id = '" + again.eventId() + "'")).as("and appends nothing").isZero();
        } finally {
            outbox.execute("drop table test_aggregates");
        }
    }

    private Long insertAggregate(String name, OutboundEvent event) {
        return writer.appendWith("""
                inserted as (
                    insert into test_aggregates (name) values (:name) on conflict (name) do nothing returning id)""",
                "inserted", "id", "order_id", event)
                .bind("name", name)
                .map(row -> row.get("id", Long.class)).one().block();
    }

    /**
     * A cycle that is slow to finish (its mark waits three seconds on a trigger, as behind a busy database) does not
     * hold back an event committed meanwhile: the relay's second lane claims and publishes it. With one lane the
     * event would leave only after the slow cycle.
     */
    @Test
    void anEventCommittedWhileACycleIsSlowLeavesOnTheOtherLane() {
        outbox.execute("""
                create function slow_mark() returns trigger language plpgsql as $$
                begin
                    perform pg_sleep(3);
                    return new;
                end $$""");
        outbox.execute("""
                create trigger slow_mark before update of sent_at on outbox_events for each row
                when (old.aggregate_id = '888001' and new.sent_at is not null) execute function slow_mark()""");
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            outbox.write(TestOutbox.created(888_001));
            await("a cycle marking 888001 sent, slowly").atMost(Duration.ofSeconds(5))
                    .until(this::sleepingInTheTrigger);

            outbox.write(TestOutbox.created(888_002));
            await("888002 sent beside the slow cycle").atMost(Duration.ofMillis(2500))
                    .until(() -> outbox.count("aggregate_id = '888002' and sent_at is not null") == 1);
            assertThat(outbox.count("aggregate_id = '888001' and sent_at is not null"))
                    .as("the slow cycle has not committed yet").isZero();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> outbox.count("aggregate_id = '888001' and sent_at is not null") == 1);
        } finally {
            outbox.execute("drop trigger slow_mark on outbox_events");
            outbox.execute("drop function slow_mark()");
        }
    }

    private boolean sleepingInTheTrigger() {
        return DatabaseClient.create(connectionFactory).sql("""
                select count(*) from pg_stat_activity
                 where datname = current_database() and wait_event = 'PgSleep'""")
                .map(r -> r.get(0, Long.class)).one().block() > 0;
    }

    @Test
    void keepsListeningAfterTheDatabaseDropsEveryConnection() throws SQLException {
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            publishesAfterEveryConnectionWasDropped(probe);
        }
    }

    private void publishesAfterEveryConnectionWasDropped(QueueProbe probe) throws SQLException {
        await().atMost(Duration.ofSeconds(10)).until(() -> listeningBackends().size() == 1);
        Integer before = listeningBackends().get(0);

        // What a database restart does to a client: every session ends at once.
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
                Statement statement = connection.createStatement()) {
            statement.execute("select pg_terminate_backend(pid) from pg_stat_activity"
                    + " where datname = current_database() and pid <> pg_backend_pid()");
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> listeningBackends().size() == 1 && !listeningBackends().contains(before));
        assertThat(outboxHealthIndicator.health().getDetails()).containsEntry("listening", true);

        DomainEvent event = TestOutbox.created(5000);
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            outbox.write(event);
            return true;
        });
        await().atMost(Duration.ofSeconds(10))
                .until(() -> probe.messageIds().contains(event.eventId().toString()));
    }

    private List<Integer> listeningBackends() throws SQLException {
        List<Integer> pids = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select pid from pg_stat_activity"
                        + " where datname = current_database() and query ilike 'listen %'")) {
            while (rows.next()) {
                pids.add(rows.getInt(1));
            }
        }
        return pids;
    }
}
