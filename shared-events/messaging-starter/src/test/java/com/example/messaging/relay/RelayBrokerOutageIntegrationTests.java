package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.DomainEvent;
import com.example.events.OrderEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.testsupport.TestInfrastructure;
import com.example.testsupport.ThrowawayRabbit;

import io.r2dbc.spi.ConnectionFactory;

/**
 * The broker dies (kill -9) while the service keeps writing events, then comes back: every event
 * arrives, and nothing had to be restarted or requeued. Runs against a RabbitMQ node of its own;
 * the database is a fresh one on the shared PostgreSQL.
 */
class RelayBrokerOutageIntegrationTests {

    static ThrowawayRabbit broker;
    static ConfigurableApplicationContext service;

    @BeforeAll
    static void startBrokerAndService() {
        assumeTrue(ThrowawayRabbit.isAvailable(), "needs rabbitmq-server and root to run a throw-away node");
        broker = ThrowawayRabbit.create("relay-it");
        TestInfrastructure infrastructure = TestInfrastructure.get();
        TestInfrastructure.Postgres pg = infrastructure.postgres();
        String database = infrastructure.createDatabase("it_relay_outage");
        service = new SpringApplicationBuilder(RelayTestApplication.class)
                .web(WebApplicationType.NONE)
                .run("--spring.r2dbc.url=" + pg.r2dbcUrl(database),
                        "--spring.r2dbc.username=" + pg.user(),
                        "--spring.r2dbc.password=" + pg.password(),
                        "--spring.flyway.url=" + pg.jdbcUrl(database),
                        "--spring.flyway.user=" + pg.user(),
                        "--spring.flyway.password=" + pg.password(),
                        "--spring.rabbitmq.host=" + broker.host(),
                        "--spring.rabbitmq.port=" + broker.port(),
                        "--spring.rabbitmq.username=" + broker.user(),
                        "--spring.rabbitmq.password=" + broker.password(),
                        "--spring.rabbitmq.virtual-host=/",
                        "--spring.rabbitmq.connection-timeout=2s",
                        "--messaging.relay.poll-interval=200ms",
                        "--messaging.relay.confirm-timeout=2s",
                        "--messaging.relay.park-after=1s",
                        "--messaging.relay.backoff.max=1s");
    }

    @AfterAll
    static void stopServiceAndBroker() {
        if (service != null) {
            service.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void eventsWrittenWhileTheBrokerIsDownArriveAfterItRestartsWithoutRestartingTheService() {
        ConnectionFactory connectionFactory = service.getBean(ConnectionFactory.class);
        TestOutbox outbox = new TestOutbox(service.getBean(OutboxWriter.class),
                TransactionalOperator.create(new R2dbcTransactionManager(connectionFactory)),
                DatabaseClient.create(connectionFactory));
        QueueProbe probe = QueueProbe.bind(service.getBean(AmqpAdmin.class), service.getBean(RabbitTemplate.class),
                OrderEvent.EXCHANGE, "#");
        List<String> beforeOutage = new ArrayList<>();
        for (int order = 1; order <= 20; order++) {
            beforeOutage.add(write(outbox, TestOutbox.created(order)));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> probe.messageIds().containsAll(beforeOutage));

        broker.kill();
        List<String> duringOutage = new ArrayList<>();
        for (int order = 21; order <= 120; order++) {
            duringOutage.add(write(outbox, TestOutbox.created(order)));
        }
        // Proof the relay met the outage: it tried every row and backed off, and an outage is no refusal: no row
        // gets closer to being parked however long it lasts (every row used to be parked at the first refusal
        // after a long outage, e.g. a NO_ROUTE while the probe's queue was not declared again yet; parking is on a
        // time budget of refusals now).
        await().atMost(Duration.ofSeconds(20)).until(() -> outbox.count(
                "sent_at is null and last_error like 'BROKER_UNAVAILABLE%' and next_attempt_at > created_at") == 100);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> outbox.count("attempts > 0") == 0);
        assertThat(outbox.count("sent_at is null")).isEqualTo(100);

        broker.start();
        // The relay may publish before the probe's queue is back (a crash can lose what the node had not synced):
        // such events are returned and retried, never parked, the broker having refused them for moments.
        probe.redeclare();
        await().atMost(Duration.ofSeconds(60)).until(() -> outbox.count("sent_at is null") == 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.messageIds().containsAll(duringOutage));
        // Nothing could be published during the outage, so nothing written then arrives twice. (Events
        // consumed before the crash may: the broker itself forgets acks not yet on disk when killed.)
        Map<String, Long> copies = probe.messageIds().stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(duringOutage).allSatisfy(id -> assertThat(copies).containsEntry(id, 1L));
        assertThat(outbox.count("parked_at is not null")).isZero();
        assertThat(service.getBean(OutboxRelay.class).isRunning()).isTrue();
    }

    /**
     * A memory alarm blocks the relay's connection while orders keep arriving: nothing is published, nothing is
     * refused or parked (the broker refuses no row, it reads nothing), and everything leaves once it clears. The
     * park budget is one second here, so a relay that took the alarm for refusals would park every row.
     */
    @Test
    void eventsWrittenDuringAMemoryAlarmLeaveWhenItClearsAndNoneIsParked() {
        ConnectionFactory connectionFactory = service.getBean(ConnectionFactory.class);
        TestOutbox outbox = new TestOutbox(service.getBean(OutboxWriter.class),
                TransactionalOperator.create(new R2dbcTransactionManager(connectionFactory)),
                DatabaseClient.create(connectionFactory));
        QueueProbe probe = QueueProbe.bind(service.getBean(AmqpAdmin.class), service.getBean(RabbitTemplate.class),
                OrderEvent.EXCHANGE, "OrderCancelled");
        String before = write(outbox, TestOutbox.cancelled(500, 1));
        await().atMost(Duration.ofSeconds(20)).until(() -> probe.messageIds().contains(before));

        broker.memoryAlarm(true);
        List<String> duringAlarm = new ArrayList<>();
        try {
            for (int order = 501; order <= 550; order++) {
                duringAlarm.add(write(outbox, TestOutbox.cancelled(order, 1)));
            }
            // Proof the relay met the alarm: the broker told it (or, before it did, withheld the confirms).
            await().atMost(Duration.ofSeconds(20)).until(() -> outbox.count(
                    "sent_at is null and (last_error like 'BLOCKED%' or last_error like 'TIMED_OUT%')") == 50);
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6))
                    .until(() -> outbox.count("sent_at is null and attempts = 0 and parked_at is null") == 50);
        } finally {
            broker.memoryAlarm(false);
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> outbox.count("sent_at is null") == 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.messageIds().containsAll(duringAlarm));
        assertThat(outbox.count("parked_at is not null")).isZero();
        probe.close();
    }

    private static String write(TestOutbox outbox, DomainEvent event) {
        outbox.write(event);
        return event.eventId().toString();
    }
}
