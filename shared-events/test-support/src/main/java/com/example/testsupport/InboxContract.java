package com.example.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.test.context.TestPropertySource;

import com.example.events.EventHeaders;
import com.example.events.EventJson;
import com.example.events.OrderCreated;
import com.example.events.OrderEvent;

import tools.jackson.databind.node.ObjectNode;

/**
 * What every service that consumes {@code order.events} through the inbox must show, against the
 * real broker and database: one effect and one reply per event however often and however
 * concurrently it arrives, and poison in the dead-letter queue with its reason while the queue keeps
 * flowing. A service test class extends this with {@code @SpringBootTest} and {@link FreshInfrastructure}.
 *
 * <p>Two consumers with prefetch 1 stand for two instances of the service: copies of one event are
 * delivered to both at once and race in two transactions.
 */
@TestPropertySource(properties = { "spring.cloud.stream.default.consumer.concurrency=2",
        "spring.cloud.stream.rabbit.default.consumer.prefetch=1" })
public abstract class InboxContract extends ConsumerTestSupport {

    /** Ways a message can be unreadable, with a phrase the dead-letter reason must contain. */
    protected enum Poison {
        UNPARSEABLE_JSON("malformed JSON") {
            @Override
            Message spoil(Message good) {
                return MessageBuilder.withBody("{\"event_id\": ".getBytes(StandardCharsets.UTF_8))
                        .copyProperties(good.getMessageProperties()).build();
            }
        },
        UNKNOWN_EVENT_TYPE("unknown event type 'OrderShipped'") {
            @Override
            Message spoil(Message good) {
                return MessageBuilder.fromClonedMessage(good).setHeader(EventHeaders.EVENT_TYPE, "OrderShipped").build();
            }
        },
        OVER_THE_SIZE_LIMIT("bytes is over the limit of 262144 bytes") {
            @Override
            Message spoil(Message good) {
                byte[] body = new byte[300 * 1024];
                Arrays.fill(body, (byte) ' ');
                System.arraycopy(good.getBody(), 0, body, 0, good.getBody().length);
                return MessageBuilder.withBody(body).copyProperties(good.getMessageProperties()).build();
            }
        },
        MISSING_MESSAGE_ID("missing message_id") {
            @Override
            Message spoil(Message good) {
                Message spoiled = MessageBuilder.fromClonedMessage(good).build();
                spoiled.getMessageProperties().setMessageId(null);
                return spoiled;
            }
        };

        final String reason;

        Poison(String reason) {
            this.reason = reason;
        }

        abstract Message spoil(Message good);
    }

    /** The service's queue on order.events, e.g. {@code order.events.inventory-service}. */
    protected abstract String queue();

    /** A new order (with whatever data it needs seeded) that the service applies with one visible effect. */
    protected abstract OrderCreated newOrder();

    /** How many times the order's effect is in the database: 1 once applied. */
    protected abstract long effects(OrderCreated order);

    /** The event type the service answers {@link #newOrder()} with. */
    protected abstract String expectedReply();

    @Test
    void anEventDeliveredFiveTimesAtOnceHasOneEffectOneReplyAndFourCountedDuplicates() {
        OrderCreated order = newOrder();
        double duplicatesBefore = counter("events.duplicates", order.eventType());
        Message message = TestEvents.message(order);

        List<CompletableFuture<Void>> publishes = IntStream.range(0, 5)
                .mapToObj(i -> CompletableFuture.runAsync(() -> broker.publish(order.exchange(), order.eventType(), message)))
                .toList();
        publishes.forEach(CompletableFuture::join);

        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(counter("events.duplicates", order.eventType()) - duplicatesBefore).isEqualTo(4));
        assertThat(effects(order)).isEqualTo(1);
        assertThat(database.replies(order.orderId())).containsExactly(expectedReply());
        assertThat(database.count("select count(*) from processed_events where event_id = ?", order.eventId()))
                .isEqualTo(1);
        awaitQueueDrained(queue());
    }

    @ParameterizedTest
    @EnumSource(Poison.class)
    void anUnreadableMessageGoesStraightToTheDeadLetterQueueAndTheNextEventIsApplied(Poison poison) {
        OrderCreated spoiled = newOrder();
        OrderCreated next = newOrder();
        double poisonBefore = counter("events.poison", null);

        broker.publishToQueue(queue(), poison.spoil(TestEvents.message(spoiled)));
        broker.publish(next);

        Message dead = awaitDeadLetter();
        assertThat((String) dead.getMessageProperties().getHeader(EventHeaders.POISON_REASON)).contains(poison.reason);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(effects(next)).isEqualTo(1));
        assertThat(database.replies(next.orderId())).containsExactly(expectedReply());
        assertThat(effects(spoiled)).isZero();
        assertThat(database.replies(spoiled.orderId())).isEmpty();
        assertThat(counter("events.poison", null) - poisonBefore).isEqualTo(1);
        awaitQueueDrained(queue());
    }

    /**
     * An order whose body breaks the contract (no units: order-service never accepts one) cannot be read into an
     * {@link OrderCreated} by any consumer, so it is poison with the reason, and nothing is left behind.
     */
    @Test
    void anEventThatBreaksTheContractIsPoisonAndLeavesNothingBehind() {
        OrderCreated order = newOrder();
        Message good = TestEvents.message(order);
        ObjectNode body = (ObjectNode) EventJson.mapper().readTree(good.getBody());
        body.putArray("sku_ids");
        Message invalid = MessageBuilder.withBody(EventJson.mapper().writeValueAsBytes(body))
                .copyProperties(good.getMessageProperties()).build();

        broker.publish(order.exchange(), order.eventType(), invalid);

        Message dead = awaitDeadLetter();
        assertThat(dead.getMessageProperties().getMessageId()).isEqualTo(order.eventId().toString());
        assertThat((String) dead.getMessageProperties().getHeader(EventHeaders.POISON_REASON))
                .contains("'sku_ids' must name at least one sku");
        assertThat(effects(order)).isZero();
        assertThat(database.count("select count(*) from processed_events where event_id = ?", order.eventId()))
                .isZero();
        assertThat(database.replies(order.orderId())).isEmpty();
        awaitQueueDrained(queue());
    }

    @Test
    void queuesAreDurableQuorumQueuesWithADeadLetterQueueAndTheReplyExchangeExists() {
        assertThat(broker.hasDurableExchange(OrderEvent.EXCHANGE, "topic")).isTrue();
        assertThat(broker.hasDurableExchange(replyExchange(), "topic")).isTrue();
        assertThat(broker.queueArguments(queue()).path("x-queue-type").asString()).isEqualTo("quorum");
        assertThat(broker.queueArguments(queue()).path("x-delivery-limit").asInt()).isPositive();
        assertThat(broker.queueArguments(queue()).path("x-dead-letter-routing-key").asString()).isEqualTo(queue());
        assertThat(broker.queueArguments(queue() + ".dlq").path("x-queue-type").asString()).isEqualTo("quorum");
    }

    private Message awaitDeadLetter() {
        String dlq = queue() + ".dlq";
        return await().atMost(PATIENCE).until(() -> broker.receive(dlq, Duration.ofMillis(500)), message -> message != null);
    }
}
