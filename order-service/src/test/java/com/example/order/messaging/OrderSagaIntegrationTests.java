package com.example.order.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.stream.binding.BindingsLifecycleController;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.example.events.CouponNotNeeded;
import com.example.events.CouponRedeemed;
import com.example.events.CouponReleased;
import com.example.events.DomainEvent;
import com.example.events.EventJson;
import com.example.events.InventoryRejected;
import com.example.events.InventoryReleased;
import com.example.events.InventoryReserved;
import com.example.events.OrderCancelled;
import com.example.events.PaymentFailed;
import com.example.events.PaymentRefunded;
import com.example.events.PaymentRequested;
import com.example.events.PaymentSucceeded;
import com.example.events.RiskApproved;
import com.example.events.RiskRejected;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.TestEvents;
import com.example.testsupport.TestTokens;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.JsonNode;

/** order-service alone, with the other services played by the test: replies arrive shuffled and twice. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
class OrderSagaIntegrationTests {

    private static final Instant NOW = Instant.now();
    /** The inbox's binding ({@code InboxBinding.NAME}). */
    private static final String INBOX_BINDING = "inbox-in-0";
    private static final List<String> REPLY_QUEUES = List.of("inventory.events.order-service",
            "coupon.events.order-service", "risk.events.order-service");

    @LocalServerPort
    int port;

    @Autowired
    RabbitTemplate rabbit;

    @Autowired
    DatabaseClient db;

    @Autowired
    MeterRegistry meters;

    @Autowired
    BindingsLifecycleController bindings;

    WebTestClient client;

    @BeforeEach
    void setUp() {
        client = WebTestClient.bindToServer().baseUrl("http://localhost:" + port)
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + TestTokens.admin()).build();
    }

    @Test
    void asksForThePaymentOnceEveryStepSucceededWhateverTheOrderAndDuplicatesAndConfirmsOnceItIsCharged() {
        long orderId = placeOrder("WELCOME10");
        // 1999 + 1000 cents less 10%: 2699.1, rounded down.
        List<DomainEvent> replies = List.of(new InventoryReserved(UUID.randomUUID(), orderId, List.of(1L, 2L), 2999L,
                NOW),
                new CouponRedeemed(UUID.randomUUID(), orderId, "WELCOME10", 10, NOW),
                new RiskApproved(UUID.randomUUID(), orderId, NOW));

        publishShuffledTwice(replies, 7);

        await().untilAsserted(() -> assertThat(payloads(orderId, "PaymentRequested")).hasSize(1));
        await().untilAsserted(() -> assertThat(duplicates()).isGreaterThanOrEqualTo(3));
        assertThat(payloads(orderId, "PaymentRequested")).as("asked once").hasSize(1);
        PaymentRequested requested = EventJson.read(payloads(orderId, "PaymentRequested").get(0),
                PaymentRequested.class);
        assertThat(requested.amountCents()).isEqualTo(2699);
        assertThat(requested.userId()).isEqualTo(5);
        assertThat(order(orderId).get("status").asString()).as("not paid yet").isEqualTo("CREATED");

        publishShuffledTwice(List.of(new PaymentSucceeded(UUID.randomUUID(), orderId, 2699L, "ch_1", NOW)), 8);

        awaitOrder(orderId, "CONFIRMED");
        client.get().uri("/orders/{id}", orderId).exchange().expectBody()
                .jsonPath("$.steps.inventory").isEqualTo("OK")
                .jsonPath("$.steps.coupon").isEqualTo("OK")
                .jsonPath("$.steps.risk").isEqualTo("OK")
                .jsonPath("$.steps.payment").isEqualTo("OK")
                .jsonPath("$.amount_cents").isEqualTo(2699)
                .jsonPath("$.rejection_reason").isEmpty();
        assertThat(count("select count(*) from order_history where order_id = " + orderId + " and applied"))
                .as("creation + four replies, each applied once").isEqualTo(5);
        assertThat(count("select count(*) from outbox_events where event_type = 'OrderCancelled' and aggregate_id = '"
                + orderId + "'")).isZero();
    }

    @Test
    void aRiskRejectionAfterInventoryAndCouponSucceededCancelsOnceAndCompensatesBoth() {
        long orderId = placeOrder("SPRING");
        publishShuffledTwice(List.of(new InventoryReserved(UUID.randomUUID(), orderId, List.of(1L, 2L), 0L, NOW),
                new CouponRedeemed(UUID.randomUUID(), orderId, "SPRING", 10, NOW)), 3);
        await().untilAsserted(() -> assertThat(order(orderId).get("steps").get("coupon").asString()).isEqualTo("OK"));
        await().untilAsserted(() -> assertThat(order(orderId).get("steps").get("inventory").asString()).isEqualTo("OK"));

        publishShuffledTwice(List.of(new RiskRejected(UUID.randomUUID(), orderId, List.of("user 5 is blocked"), NOW)), 1);

        awaitOrder(orderId, "REJECTED");
        assertThat(order(orderId).get("rejection_reason").asString()).isEqualTo("risk: user 5 is blocked");
        List<String> cancellations = db.sql("select payload::text from outbox_events where event_type = 'OrderCancelled' "
                + "and aggregate_id = :id").bind("id", String.valueOf(orderId)).map(row -> row.get(0, String.class))
                .all().collectList().block();
        assertThat(cancellations).hasSize(1);
        assertThat(EventJson.read(cancellations.get(0), OrderCancelled.class).reason())
                .isEqualTo("risk: user 5 is blocked");

        publishShuffledTwice(List.of(new InventoryReleased(UUID.randomUUID(), orderId, NOW),
                new CouponReleased(UUID.randomUUID(), orderId, "SPRING", NOW)), 5);

        await().untilAsserted(() -> {
            JsonNode steps = order(orderId).get("steps");
            assertThat(steps.get("inventory").asString()).isEqualTo("COMPENSATED");
            assertThat(steps.get("coupon").asString()).isEqualTo("COMPENSATED");
            assertThat(steps.get("risk").asString()).isEqualTo("REJECTED");
        });
        assertThat(order(orderId).get("status").asString()).isEqualTo("REJECTED");
    }

    @Test
    void aSuccessThatArrivesAfterTheRejectionIsRecordedAndLateRepliesAreIgnored() {
        long orderId = placeOrder(null);
        publishShuffledTwice(List.of(new InventoryRejected(UUID.randomUUID(), orderId, "sku 2: 0 available", NOW)), 1);
        awaitOrder(orderId, "REJECTED");

        publishShuffledTwice(List.of(new CouponNotNeeded(UUID.randomUUID(), orderId, NOW),
                new RiskApproved(UUID.randomUUID(), orderId, NOW),
                new InventoryReserved(UUID.randomUUID(), orderId, List.of(1L), 0L, NOW)), 11);

        await().untilAsserted(() -> assertThat(count("select count(*) from order_history where order_id = " + orderId))
                .isEqualTo(5));
        JsonNode order = order(orderId);
        assertThat(order.get("status").asString()).isEqualTo("REJECTED");
        assertThat(order.get("steps").get("coupon").asString()).isEqualTo("NOT_NEEDED");
        assertThat(order.get("steps").get("risk").asString()).isEqualTo("OK");
        assertThat(order.get("steps").get("inventory").asString()).as("a different event id with the same meaning")
                .isEqualTo("REJECTED");
        assertThat(count("select count(*) from order_history where order_id = " + orderId + " and not applied"))
                .isEqualTo(1);
    }

    @Test
    void anOrderThatCostsNothingIsConfirmedWithoutPayment() {
        long orderId = placeOrder(null);
        publishShuffledTwice(List.of(new InventoryReserved(UUID.randomUUID(), orderId, List.of(1L, 2L), 0L, NOW),
                new CouponNotNeeded(UUID.randomUUID(), orderId, NOW), new RiskApproved(UUID.randomUUID(), orderId, NOW)),
                4);

        awaitOrder(orderId, "CONFIRMED");
        assertThat(order(orderId).get("steps").get("payment").asString()).isEqualTo("NOT_NEEDED");
        assertThat(payloads(orderId, "PaymentRequested")).isEmpty();
    }

    @Test
    void aFailedPaymentRejectsTheOrderAndCancelsItOnce() {
        long orderId = placeOrder(null);
        publishShuffledTwice(List.of(new InventoryReserved(UUID.randomUUID(), orderId, List.of(1L, 2L), 500L, NOW),
                new CouponNotNeeded(UUID.randomUUID(), orderId, NOW), new RiskApproved(UUID.randomUUID(), orderId, NOW)),
                9);
        await().untilAsserted(() -> assertThat(payloads(orderId, "PaymentRequested")).hasSize(1));

        publishShuffledTwice(List.of(new PaymentFailed(UUID.randomUUID(), orderId, "declined by the provider", NOW)), 2);

        awaitOrder(orderId, "REJECTED");
        assertThat(order(orderId).get("rejection_reason").asString()).isEqualTo("payment: declined by the provider");
        assertThat(order(orderId).get("steps").get("payment").asString()).isEqualTo("REJECTED");
        assertThat(payloads(orderId, "OrderCancelled")).hasSize(1);
    }

    @Test
    void aCancelledOrderIsRefundedAndTheCancellationIsIdempotent() {
        long orderId = placeOrder(null);
        publishShuffledTwice(List.of(new InventoryReserved(UUID.randomUUID(), orderId, List.of(1L, 2L), 500L, NOW),
                new CouponNotNeeded(UUID.randomUUID(), orderId, NOW), new RiskApproved(UUID.randomUUID(), orderId, NOW),
                new PaymentSucceeded(UUID.randomUUID(), orderId, 500L, "ch_2", NOW)), 10);
        awaitOrder(orderId, "CONFIRMED");

        client.post().uri("/orders/{id}/cancellation", orderId).exchange().expectStatus().isOk()
                .expectHeader().doesNotExist("Idempotent-Replayed")
                .expectBody().jsonPath("$.status").isEqualTo("CANCELLED").jsonPath("$.steps.payment").isEqualTo("OK");
        client.post().uri("/orders/{id}/cancellation", orderId).exchange().expectStatus().isOk()
                .expectHeader().valueEquals("Idempotent-Replayed", "true")
                .expectBody().jsonPath("$.status").isEqualTo("CANCELLED");
        assertThat(payloads(orderId, "OrderCancelled")).hasSize(1);
        assertThat(EventJson.read(payloads(orderId, "OrderCancelled").get(0), OrderCancelled.class).reason())
                .isEqualTo("cancelled by an operator");

        publishShuffledTwice(List.of(new PaymentRefunded(UUID.randomUUID(), orderId, 500L, "ch_2", "re_2", NOW),
                new InventoryReleased(UUID.randomUUID(), orderId, NOW)), 12);

        await().untilAsserted(() -> {
            JsonNode order = order(orderId);
            assertThat(order.get("steps").get("payment").asString()).isEqualTo("REFUNDED");
            assertThat(order.get("steps").get("inventory").asString()).isEqualTo("COMPENSATED");
            assertThat(order.get("status").asString()).isEqualTo("CANCELLED");
        });
    }

    @Test
    void aRejectedOrderCannotBeCancelled() {
        long orderId = placeOrder(null);
        publishShuffledTwice(List.of(new InventoryRejected(UUID.randomUUID(), orderId, "sku 2: 0 available", NOW)), 1);
        awaitOrder(orderId, "REJECTED");

        client.post().uri("/orders/{id}/cancellation", orderId).exchange().expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.type").isEqualTo("https://example.com/problems/order-final")
                .jsonPath("$.retryable").isEqualTo(false);
        client.post().uri("/orders/{id}/cancellation", 999_999_999L).exchange().expectStatus().isNotFound();
        assertThat(payloads(orderId, "OrderCancelled")).hasSize(1);
    }

    /** The amount follows from inventory's total and the coupon step's discount; before both answered it is null. */
    @Test
    void theAmountIsKnownOnceInventoryAndTheCouponStepHaveAnswered() {
        long orderId = placeOrder(null);
        publishShuffledTwice(List.of(new InventoryReserved(UUID.randomUUID(), orderId, List.of(1L, 2L), 1001L, NOW)),
                5);
        await().untilAsserted(() -> assertThat(order(orderId).get("steps").get("inventory").asString()).isEqualTo("OK"));
        assertThat(order(orderId).get("amount_cents").isNull()).as("no answer from the coupon step yet").isTrue();

        publishShuffledTwice(List.of(new CouponNotNeeded(UUID.randomUUID(), orderId, NOW)), 6);

        await().untilAsserted(() -> assertThat(order(orderId).get("amount_cents").asLong()).isEqualTo(1001));
    }

    /**
     * Replies that waited in the queues while the inbox was stopped arrive in batches holding several replies of one
     * order (an order's replies share a lane): the batch locks and reads its orders once, ahead, and each reply starts
     * from its order as the replies before it in the batch left it. Had a reply started from what was read ahead,
     * the one before it would be overwritten and no order would be asked for its payment. What the batch did is
     * written when it commits: each order as its last reply left it, and one history row per reply, applied or
     * ignored, in the order they were applied, each with the state that reply left the order in.
     */
    @Test
    void repliesThatWaitedAreAppliedInBatchesEachFromItsOrderAsTheRepliesBeforeItLeftIt() {
        List<Long> orderIds = List.of(placeOrder(null), placeOrder("WELCOME10"), placeOrder(null));
        List<DomainEvent> replies = new ArrayList<>();
        for (long orderId : orderIds) {
            replies.add(new InventoryReserved(UUID.randomUUID(), orderId, List.of(1L, 2L), 1000L, NOW));
            replies.add(orderId == orderIds.get(1) ? new CouponRedeemed(UUID.randomUUID(), orderId, "WELCOME10", 10, NOW)
                    : new CouponNotNeeded(UUID.randomUUID(), orderId, NOW));
            replies.add(new RiskApproved(UUID.randomUUID(), orderId, NOW));
        }
        // Another event with the same meaning: whichever of the two comes second finds inventory OK and is ignored.
        long twiceReserved = orderIds.get(2);
        replies.add(new InventoryReserved(UUID.randomUUID(), twiceReserved, List.of(1L, 2L), 1000L, NOW));
        bindings.stop(INBOX_BINDING);
        try {
            publishShuffledTwice(replies, 13);
            await().until(() -> REPLY_QUEUES.stream().mapToLong(this::ready).sum() == 2L * replies.size());
        } finally {
            bindings.start(INBOX_BINDING);
        }

        for (long orderId : orderIds) {
            await().untilAsserted(() -> assertThat(payloads(orderId, "PaymentRequested")).hasSize(1));
            JsonNode order = order(orderId);
            assertThat(order.get("steps").get("inventory").asString()).isEqualTo("OK");
            assertThat(order.get("steps").get("coupon").asString()).isIn("OK", "NOT_NEEDED");
            assertThat(order.get("steps").get("risk").asString()).isEqualTo("OK");
            assertThat(order.get("amount_cents").asLong()).isEqualTo(orderId == orderIds.get(1) ? 900 : 1000);
            assertThat(count("select count(*) from order_history where order_id = " + orderId + " and applied"))
                    .as("creation + three replies, each applied once").isEqualTo(4);
            assertThat(stepsDone(orderId)).as("each reply's row shows the order as that reply left it")
                    .containsExactly(0L, 1L, 2L, 3L);
            assertThat(count("select count(*) from order_history where order_id = " + orderId
                    + " and not applied and note is not null and inventory_step = 'OK'"))
                    .as("the second InventoryReserved, recorded as ignored")
                    .isEqualTo(orderId == twiceReserved ? 1 : 0);
        }
        assertThat(meters.get("events.batch.size").summary().max()).as("batches of several replies formed")
                .isGreaterThan(1.0);
    }

    private long placeOrder(String coupon) {
        String body = "{\"user_id\": 5, \"sku_ids\": [1, 2], \"idempotency_key\": \"" + UUID.randomUUID() + "\""
                + (coupon == null ? "" : ", \"coupon_code\": \"" + coupon + "\"") + "}";
        return client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().isCreated().expectBody(JsonNode.class).returnResult().getResponseBody()
                .get("order_id").asLong();
    }

    private void publishShuffledTwice(List<DomainEvent> replies, long seed) {
        List<DomainEvent> deliveries = new ArrayList<>(replies);
        deliveries.addAll(replies);
        Collections.shuffle(deliveries, new Random(seed));
        deliveries.forEach(reply -> TestEvents.publish(rabbit, reply));
    }

    private void awaitOrder(long orderId, String status) {
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(order(orderId).get("status").asString()).isEqualTo(status));
    }

    private JsonNode order(long orderId) {
        return client.get().uri("/orders/{id}", orderId).exchange().expectStatus().isOk().expectBody(JsonNode.class)
                .returnResult().getResponseBody();
    }

    private List<String> payloads(long orderId, String eventType) {
        return db.sql("select payload::text from outbox_events where event_type = :type and aggregate_id = :id")
                .bind("type", eventType).bind("id", String.valueOf(orderId)).map(row -> row.get(0, String.class))
                .all().collectList().block();
    }

    /** Per applied row of the order's history, oldest first: how many of inventory, coupon and risk were done. */
    private List<Long> stepsDone(long orderId) {
        return db.sql("""
                select ((inventory_step = 'OK')::int + (coupon_step in ('OK', 'NOT_NEEDED'))::int
                       + (risk_step = 'OK')::int)::bigint as done
                  from order_history where order_id = :id and applied order by id""")
                .bind("id", orderId).map(row -> row.get("done", Long.class)).all().collectList().block();
    }

    private long ready(String queue) {
        return rabbit.execute(channel -> (long) channel.queueDeclarePassive(queue).getMessageCount());
    }

    private double duplicates() {
        return meters.find("events.duplicates").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    private long count(String sql) {
        Map<String, Object> row = db.sql(sql).fetch().one().block();
        return ((Number) row.values().iterator().next()).longValue();
    }
}
