package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.DomainEvent;
import com.example.events.OrderEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.testsupport.FreshInfrastructure;

import io.r2dbc.spi.ConnectionFactory;
import reactor.core.publisher.Flux;

/**
 * Benchmark, not a test of speed: how fast the relay drains a backlog of 20,000 events (10,000
 * orders with two events each, so every order needs two rounds), with the default settings,
 * against this machine's PostgreSQL and RabbitMQ. Prints {@code relay drain: N events/s}.
 * Excluded from the default build (tag "benchmark"); run it with
 *
 * <pre>
 * ./mvnw -B verify -pl shared-events -Dgroups=benchmark -Dit.test=RelayDrainBenchmarkIntegrationTests \
 *     -Dtest=None -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@Tag("benchmark")
@SpringBootTest
@FreshInfrastructure
class RelayDrainBenchmarkIntegrationTests {

    private static final int ORDERS = 10_000;
    private static final int EVENTS = 2 * ORDERS;

    @Autowired
    OutboxRelay relay;

    @Autowired
    OutboxWriter writer;

    @Autowired
    ConnectionFactory connectionFactory;

    @Autowired
    AmqpAdmin admin;

    @Autowired
    RabbitTemplate rabbit;

    @Test
    void drainsABacklogOfTwentyThousandEvents() {
        TransactionalOperator transactions = TransactionalOperator.create(new R2dbcTransactionManager(connectionFactory));
        TestOutbox outbox = new TestOutbox(writer, transactions, DatabaseClient.create(connectionFactory));
        relay.stop();
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            Flux.range(1, ORDERS).flatMap(order -> {
                DomainEvent created = TestOutbox.created(order);
                DomainEvent cancelled = TestOutbox.cancelled(order, 2);
                return transactions.transactional(writer.append(created))
                        .then(transactions.transactional(writer.append(cancelled)));
            }, 16).blockLast();
            assertThat(outbox.count("sent_at is null")).isEqualTo(EVENTS);

            long started = System.nanoTime();
            relay.start();
            await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> outbox.count("sent_at is null") == 0);
            double seconds = (System.nanoTime() - started) / 1e9;

            System.out.printf("relay drain: %.0f events/s (%d events in %.1f s)%n", EVENTS / seconds, EVENTS, seconds);
            await().atMost(Duration.ofSeconds(30)).until(() -> probe.depth() == EVENTS);
        }
    }
}
