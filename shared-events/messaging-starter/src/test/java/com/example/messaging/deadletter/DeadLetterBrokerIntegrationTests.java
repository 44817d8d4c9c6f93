package com.example.messaging.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;

import com.example.testsupport.TestInfrastructure;

/**
 * Moving dead letters back against the real broker, in a vhost of its own, with queues shaped like the binder's
 * (quorum, {@code <queue>.dlq}): what is moved, what the copies carry, and what happens when the broker refuses.
 * The mover connects as a user with a service's kind of permissions: it may write to the dead-letter exchange and
 * the queues, not to the default exchange, and configure nothing.
 */
class DeadLetterBrokerIntegrationTests {

    static CachingConnectionFactory connections;
    static RabbitAdmin admin;
    static RabbitTemplate rabbit;
    static DeadLetterBroker broker;
    static final String DEAD_LETTER_EXCHANGE = "it.dlx";

    @BeforeAll
    static void connect() {
        TestInfrastructure.Rabbit server = TestInfrastructure.get().rabbit();
        String vhost = TestInfrastructure.get().createVhost("it-dead-letter-broker");
        connections = factory(server, vhost);
        admin = new RabbitAdmin(connections);
        rabbit = new RabbitTemplate(connections);
        admin.declareExchange(new DirectExchange(DEAD_LETTER_EXCHANGE, true, false));
        TestInfrastructure.Rabbit service = TestInfrastructure.get().createUser("it-dead-letters", vhost, "^$",
                "^(it\\.dlx|order\\.events\\.[a-z]+)$", "^(it\\.dlx|order\\.events\\.[a-z]+\\.dlq)$");
        broker = new DeadLetterBroker(factory(service, vhost), DEAD_LETTER_EXCHANGE, Duration.ofSeconds(5));
    }

    @AfterAll
    static void disconnect() {
        broker.close();
        connections.destroy();
    }

    @Test
    void movesEveryMessageBackInOrderWithItsPropertiesAndTheEventsHeaders() {
        String queue = quorumPair("order.events.moves");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String id = UUID.randomUUID().toString();
            ids.add(id);
            rabbit.send("", queue + ".dlq", deadLetter(id));
        }
        awaitDepth(queue + ".dlq", 3);

        assertThat(broker.depths(List.of(queue + ".dlq", queue))).containsExactly(Map.entry(queue + ".dlq", 3L),
                Map.entry(queue, 0L));
        assertThat(broker.redrive(queue + ".dlq", queue)).isEqualTo(3);

        assertThat(broker.depths(List.of(queue + ".dlq"))).containsEntry(queue + ".dlq", 0L);
        List<Message> moved = IntStream.range(0, 3).mapToObj(i -> rabbit.receive(queue, 5000)).toList();
        assertThat(moved).extracting(m -> m.getMessageProperties().getMessageId()).containsExactlyElementsOf(ids);
        Message first = moved.get(0);
        assertThat(new String(first.getBody(), StandardCharsets.UTF_8)).isEqualTo("{\"order_id\": 7}");
        assertThat(first.getMessageProperties().getContentType()).isEqualTo("application/json");
        assertThat(first.getMessageProperties().getReceivedDeliveryMode()).isEqualTo(MessageDeliveryMode.PERSISTENT);
        assertThat(first.getMessageProperties().getHeaders())
                .containsEntry("event_type", "OrderCreated")
                .containsEntry("aggregate_id", "7")
                .containsEntry("schema_version", 1)
                .containsKey("x-death")
                .doesNotContainKeys("x-poison-reason", "x-exception-message", "x-exception-stacktrace",
                        "x-original-exchange", "x-original-routingKey");
    }

    @Test
    void movesNoMoreThanTheQueueHeldWhenItStartedThoughEverythingComesBackAtOnce() {
        String queue = quorumPair("order.events.loops");
        for (int i = 0; i < DeadLetterBroker.BATCH + 50; i++) {
            rabbit.send("", queue + ".dlq", deadLetter(UUID.randomUUID().toString()));
        }
        awaitDepth(queue + ".dlq", DeadLetterBroker.BATCH + 50);
        // A consumer that dead-letters everything again at once: poison that nobody fixed.
        SimpleMessageListenerContainer poisoned = new SimpleMessageListenerContainer(connections);
        poisoned.setQueueNames(queue);
        poisoned.setMessageListener(message -> rabbit.send("", queue + ".dlq", message));
        poisoned.start();
        try {
            // Unbounded, the move would go on for as long as the consumer keeps up.
            long moved = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> broker.redrive(queue + ".dlq", queue));
            assertThat(moved).isEqualTo(DeadLetterBroker.BATCH + 50);

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                    broker.depths(List.of(queue + ".dlq", queue))).containsExactly(
                            Map.entry(queue + ".dlq", (long) DeadLetterBroker.BATCH + 50), Map.entry(queue, 0L)));
        } finally {
            poisoned.stop();
        }
    }

    @Test
    void aQueueThatRefusesTheCopiesLeavesEveryMessageInTheDeadLetterQueue() {
        String dlq = "order.events.full.dlq";
        admin.declareQueue(QueueBuilder.durable(dlq).quorum().build());
        // Takes one message, then the broker nacks every further publish.
        String queue = admin.declareQueue(QueueBuilder.durable("order.events.full").maxLength(1).overflow(QueueBuilder.Overflow.rejectPublish).build());
        for (int i = 0; i < 3; i++) {
            rabbit.send("", dlq, deadLetter(UUID.randomUUID().toString()));
        }
        awaitDepth(dlq, 3);

        assertThatThrownBy(() -> broker.redrive(dlq, queue))
                .isInstanceOf(DeadLetterBroker.RedriveFailed.class)
                .hasMessageContaining("nack")
                .satisfies(failure -> assertThat(((DeadLetterBroker.RedriveFailed) failure).moved()).isZero());

        // The copy the queue took is a duplicate of a message still dead-lettered: at least once, nothing lost.
        // (A quorum queue applies the requeue a moment after the nack.)
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(broker.depths(List.of(dlq, queue)))
                .containsExactly(Map.entry(dlq, 3L), Map.entry(queue, 1L)));
    }

    @Test
    void aMissingQueueLeavesTheDeadLettersWhereTheyAre() {
        String dlq = "order.events.gone.dlq";
        admin.declareQueue(QueueBuilder.durable(dlq).quorum().build());
        rabbit.send("", dlq, deadLetter(UUID.randomUUID().toString()));
        awaitDepth(dlq, 1);

        assertThatThrownBy(() -> broker.redrive(dlq, "order.events.gone"))
                .isInstanceOf(DeadLetterBroker.RedriveFailed.class)
                .hasMessageContaining("order.events.gone");

        assertThat(broker.depths(List.of(dlq, "order.events.gone"))).containsExactly(Map.entry(dlq, 1L),
                Map.entry("order.events.gone", 0L));
        assertThat(broker.redrive("order.events.none.dlq", "order.events.none")).as("nothing to move").isZero();
    }

    /** Published without confirms on another connection: wait until the broker has them all. */
    private static void awaitDepth(String queue, long messages) {
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.depths(List.of(queue)).get(queue) == messages);
    }

    /** Declares {@code name} and {@code name.dlq} as the binder does (quorum), and returns {@code name}. */
    private static String quorumPair(String name) {
        admin.declareQueue(QueueBuilder.durable(name + ".dlq").quorum().build());
        Queue queue = QueueBuilder.durable(name).quorum().deliveryLimit(20).deadLetterExchange("")
                .deadLetterRoutingKey(name + ".dlq").build();
        return admin.declareQueue(queue);
    }

    /** A message as the binder dead-letters a poison event, plus the broker's history of an earlier round. */
    private static Message deadLetter(String id) {
        return MessageBuilder.withBody("{\"order_id\": 7}".getBytes(StandardCharsets.UTF_8))
                .setMessageId(id)
                .setContentType("application/json")
                .setDeliveryMode(MessageDeliveryMode.PERSISTENT)
                .setHeader("event_type", "OrderCreated")
                .setHeader("aggregate_type", "order")
                .setHeader("aggregate_id", "7")
                .setHeader("schema_version", 1)
                .setHeader("x-poison-reason", "order 7 does not exist")
                .setHeader("x-exception-message", "order 7 does not exist")
                .setHeader("x-exception-stacktrace", "PoisonMessageException: order 7 does not exist")
                .setHeader("x-original-exchange", "order.events")
                .setHeader("x-original-routingKey", "OrderCreated")
                .setHeader("x-death", List.of(Map.of("queue", "order.events.somewhere", "reason", "delivery_limit",
                        "count", 1L, "exchange", "")))
                .build();
    }

    private static CachingConnectionFactory factory(TestInfrastructure.Rabbit server, String vhost) {
        CachingConnectionFactory factory = new CachingConnectionFactory(server.host(), server.port());
        factory.setUsername(server.user());
        factory.setPassword(server.password());
        factory.setVirtualHost(vhost);
        return factory;
    }
}
