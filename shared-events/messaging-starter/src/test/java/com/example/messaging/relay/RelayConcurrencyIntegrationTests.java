package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.DomainEvent;
import com.example.events.EventHeaders;
import com.example.events.OrderEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.testsupport.FreshInfrastructure;

import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.spi.ConnectionFactory;
import reactor.core.publisher.Flux;

/**
 * Two replicas of a service, two relays, one outbox: a backlog of 1,000 events over 200 orders (five
 * each) is published completely, no event twice, and each order's events in the order they were
 * written. Small batches keep both relays busy at the same time.
 */
@SpringBootTest(properties = { "messaging.relay.batch-size=10", "messaging.relay.poll-interval=100ms" })
@FreshInfrastructure
class RelayConcurrencyIntegrationTests {

    private static final int ORDERS = 200;
    private static final int EVENTS_PER_ORDER = 5;

    @Autowired
    Environment environment;

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

    @Autowired
    MeterRegistry meters;

    @Test
    void twoRelaysOnOneDatabasePublishEveryEventOnceAndInOrderPerAggregate() {
        TransactionalOperator transactions = TransactionalOperator.create(new R2dbcTransactionManager(connectionFactory));
        TestOutbox outbox = new TestOutbox(writer, transactions, DatabaseClient.create(connectionFactory));
        relay.stop();
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            Map<String, List<String>> writtenPerOrder = new ConcurrentHashMap<>();
            // Orders are written concurrently; each order's events one transaction after the other.
            Flux.range(1, ORDERS).flatMap(order -> Flux.range(1, EVENTS_PER_ORDER).concatMap(n -> {
                DomainEvent event = n == 1 ? TestOutbox.created(order) : TestOutbox.cancelled(order, n);
                writtenPerOrder.computeIfAbsent(event.aggregateId(), key -> new ArrayList<>())
                        .add(event.eventId().toString());
                return transactions.transactional(writer.append(event));
            }), 16).blockLast();
            assertThat(outbox.count("sent_at is null")).isEqualTo(ORDERS * EVENTS_PER_ORDER);

            try (ConfigurableApplicationContext secondReplica = startSecondReplica()) {
                relay.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> outbox.count("sent_at is null") == 0);
                await().atMost(Duration.ofSeconds(10)).until(() -> probe.drain().size() >= ORDERS * EVENTS_PER_ORDER);

                List<Message> messages = probe.drain();
                assertThat(messages.stream().map(m -> m.getMessageProperties().getMessageId()))
                        .hasSize(ORDERS * EVENTS_PER_ORDER)
                        .doesNotHaveDuplicates();
                Map<String, List<String>> arrivedPerOrder = new LinkedHashMap<>();
                for (Message message : messages) {
                    arrivedPerOrder.computeIfAbsent(message.getMessageProperties().getHeader(EventHeaders.AGGREGATE_ID),
                            key -> new ArrayList<>()).add(message.getMessageProperties().getMessageId());
                }
                assertThat(arrivedPerOrder).isEqualTo(writtenPerOrder);
                // Both replicas took part, or this would prove nothing about two relays.
                assertThat(published(meters)).isPositive();
                assertThat(published(secondReplica.getBean(MeterRegistry.class))).isPositive();
                assertThat(published(meters) + published(secondReplica.getBean(MeterRegistry.class)))
                        .isEqualTo(ORDERS * EVENTS_PER_ORDER);
            }
        }
    }

    private ConfigurableApplicationContext startSecondReplica() {
        List<String> args = new ArrayList<>();
        for (String key : List.of("spring.r2dbc.url", "spring.r2dbc.username", "spring.r2dbc.password",
                "spring.flyway.url", "spring.flyway.user", "spring.flyway.password", "spring.rabbitmq.host",
                "spring.rabbitmq.port", "spring.rabbitmq.username", "spring.rabbitmq.password",
                "spring.rabbitmq.virtual-host", "messaging.relay.batch-size", "messaging.relay.poll-interval")) {
            args.add("--" + key + "=" + environment.getProperty(key, ""));
        }
        return new SpringApplicationBuilder(RelayTestApplication.class).web(WebApplicationType.NONE)
                .run(args.toArray(String[]::new));
    }

    private static double published(MeterRegistry registry) {
        return registry.counter(RelayMetrics.PUBLISHED).count();
    }
}
