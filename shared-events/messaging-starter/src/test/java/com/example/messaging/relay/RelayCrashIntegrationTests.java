package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.DomainEvent;
import com.example.events.OrderEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.service.faults.CrashPoints;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.JavaProcess;

import io.r2dbc.spi.ConnectionFactory;

/**
 * The relay process dies at its two crash points (a real halt of a child JVM) and is started
 * again: dying before the publish loses nothing, dying after the broker's confirm but before the
 * row is marked sent publishes the event a second time with the same message id, which is exactly
 * the duplicate consumers must absorb. This JVM only writes the event and watches the queue.
 */
@SpringBootTest(properties = "messaging.relay.enabled=false")
@FreshInfrastructure
class RelayCrashIntegrationTests {

    @Autowired
    Environment environment;

    @Autowired
    OutboxWriter writer;

    @Autowired
    ConnectionFactory connectionFactory;

    @Autowired
    AmqpAdmin admin;

    @Autowired
    RabbitTemplate rabbit;

    /** Child logs are kept for a failed run to read, and never shared between runs (the test reads them). */
    final Path logs = Path.of("target", "relay-crash-logs", Long.toString(System.currentTimeMillis()));

    @Test
    void aRelayKilledAfterTheConfirmPublishesTheSameEventAgainAfterRestart() {
        TestOutbox outbox = new TestOutbox(writer,
                TransactionalOperator.create(new R2dbcTransactionManager(connectionFactory)),
                DatabaseClient.create(connectionFactory));
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            DomainEvent event = TestOutbox.created(1);
            String id = event.eventId().toString();
            String row = "id = '" + id + "'";
            outbox.write(event);

            try (JavaProcess relay = startRelay(RelayCrashPoints.BEFORE_PUBLISH.name())) {
                assertThat(relay.awaitExit(Duration.ofSeconds(60))).as(relay.toString()).isEqualTo(CrashPoints.EXIT_CODE);
                assertThat(relay.log()).contains("CRASH POINT " + RelayCrashPoints.BEFORE_PUBLISH.name());
            }
            assertThat(probe.messageIds()).isEmpty();
            assertThat(outbox.count(row + " and sent_at is null")).isEqualTo(1);

            try (JavaProcess relay = startRelay(RelayCrashPoints.AFTER_PUBLISH_BEFORE_MARK.name())) {
                assertThat(relay.awaitExit(Duration.ofSeconds(60))).as(relay.toString()).isEqualTo(CrashPoints.EXIT_CODE);
                assertThat(relay.log()).contains("CRASH POINT " + RelayCrashPoints.AFTER_PUBLISH_BEFORE_MARK.name());
            }
            // The broker confirmed it, so it is on the queue; the relay died before recording that.
            await().atMost(Duration.ofSeconds(10)).until(() -> probe.messageIds().equals(List.of(id)));
            assertThat(outbox.count(row + " and sent_at is null")).isEqualTo(1);

            try (JavaProcess relay = startRelay("")) {
                await().atMost(Duration.ofSeconds(60)).until(() -> outbox.count(row + " and sent_at is not null") == 1);
                await().atMost(Duration.ofSeconds(10)).until(() -> probe.messageIds().equals(List.of(id, id)));
                assertThat(relay.isAlive()).isTrue();
            }
        }
    }

    private JavaProcess startRelay(String crashAt) {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (String key : List.of("spring.r2dbc.url", "spring.r2dbc.username", "spring.r2dbc.password",
                "spring.flyway.url", "spring.flyway.user", "spring.flyway.password", "spring.rabbitmq.host",
                "spring.rabbitmq.port", "spring.rabbitmq.username", "spring.rabbitmq.password",
                "spring.rabbitmq.virtual-host")) {
            properties.put(key, environment.getProperty(key, ""));
        }
        properties.put("spring.main.web-application-type", "none");
        properties.put("messaging.relay.poll-interval", "200ms");
        properties.put("faults.crash-at", crashAt);
        String name = crashAt.isEmpty() ? "clean" : crashAt;
        return JavaProcess.startMain(RelayTestApplication.class, properties, logs.resolve(name + ".log"));
    }
}
