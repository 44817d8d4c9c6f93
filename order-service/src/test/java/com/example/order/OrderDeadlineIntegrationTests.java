package com.example.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.example.events.CouponNotNeeded;
import com.example.events.CouponRedeemed;
import com.example.events.CouponReleased;
import com.example.events.DomainEvent;
import com.example.events.EventJson;
import com.example.events.InventoryReleased;
import com.example.events.InventoryReserved;
import com.example.events.OrderCancelled;
import com.example.events.RiskApproved;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.TestEvents;
import com.example.testsupport.TestTokens;

import tools.jackson.databind.JsonNode;

/**
 * The order's deadline with a short one: orders whose replies do not come are rejected, cancelled once, and what
 * succeeds too late is undone by that one cancellation. The other services are played by the test.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = { "orders.deadline=2s", "orders.deadline-sweep-interval=200ms" })
@FreshInfrastructure
class OrderDeadlineIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(2);
    private static final Instant NOW = Instant.now();

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    RabbitTemplate rabbit;

    @Autowired
    RabbitAdmin admin;

    @Autowired
    DatabaseClient db;

    WebTestClient client;

    @BeforeEach
    void setUp() {
        client = WebTestClient.bindToServer().baseUrl("http://localhost:" + port)
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + TestTokens.admin()).build();
    }

    @Test
    void anOrderWhoseRiskNeverAnswersIsRejectedAtItsDeadlineAndCancelledOnce() {
        Queue published = observeOrderEvents();
        long orderId = placeOrder("SPRING");
        publish(new InventoryReserved(UUID.randomUUID(), orderId, List.of(1L, 2L), 0L, NOW),
                new CouponRedeemed(UUID.randomUUID(), orderId, "SPRING", 10, NOW));

        JsonNode order = awaitOrder(orderId, "REJECTED");

        assertThat(order.get("rejection_reason").asString()).isEqualTo("deadline: no answer from risk within 2s");
        assertThat(Duration.between(Instant.parse(order.get("created_at").asString()),
                Instant.parse(order.get("updated_at").asString()))).as("not before its deadline")
                .isGreaterThanOrEqualTo(DEADLINE);
        assertThat(order.get("steps").get("risk").asString()).isEqualTo("TIMED_OUT");
        assertThat(order.get("steps").get("inventory").asString()).as("held until the cancellation releases it")
                .isEqualTo("OK");
        assertThat(order.get("steps").get("coupon").asString()).isEqualTo("OK");
        List<Map<String, Object>> cancelled = cancellations(orderId);
        assertThat(cancelled).hasSize(1);
        OrderCancelled event = EventJson.read((String) cancelled.get(0).get("payload"), OrderCancelled.class);
        assertThat(event.reason()).isEqualTo("deadline: no answer from risk within 2s");
        assertThat(history(orderId, "Deadline")).as("recorded with the id of the OrderCancelled it caused")
                .containsExactly(Map.of("event_id", event.eventId(), "applied", true, "risk_step", "TIMED_OUT"));
        assertThat(receiveUntil(published, "OrderCancelled", orderId)).as("the cancellation leaves through the outbox")
                .isNotNull().satisfies(message -> assertThat(message.getMessageProperties().getMessageId())
                        .isEqualTo(event.eventId().toString()));

        // What inventory and coupon answer to that cancellation.
        publish(new InventoryReleased(UUID.randomUUID(), orderId, NOW),
                new CouponReleased(UUID.randomUUID(), orderId, "SPRING", NOW));

        await().untilAsserted(() -> {
            JsonNode steps = order(orderId).get("steps");
            assertThat(steps.get("inventory").asString()).isEqualTo("COMPENSATED");
            assertThat(steps.get("coupon").asString()).isEqualTo("COMPENSATED");
        });
        assertThat(order(orderId).get("status").asString()).isEqualTo("REJECTED");
        assertThat(order(orderId).get("steps").get("risk").asString()).isEqualTo("TIMED_OUT");
        assertThat(cancellations(orderId)).as("still one").hasSize(1);
    }

    @Test
    void answersAfterTheDeadlineLeaveTheOrderRejectedAndWhatSucceededIsUndoneByTheOneCancellation() {
        long orderId = placeOrder(null);
        JsonNode rejected = awaitOrder(orderId, "REJECTED");
        assertThat(rejected.get("rejection_reason").asString())
                .isEqualTo("deadline: no answer from inventory, coupon and risk within 2s");
        assertThat(rejected.get("steps").toString())
                .isEqualTo("{\"inventory\":\"TIMED_OUT\",\"coupon\":\"TIMED_OUT\",\"risk\":\"TIMED_OUT\",\"payment\":\"PENDING\"}");

        publish(new RiskApproved(UUID.randomUUID(), orderId, NOW),
                new InventoryReserved(UUID.randomUUID(), orderId, List.of(1L, 2L), 0L, NOW),
                new CouponNotNeeded(UUID.randomUUID(), orderId, NOW));

        await().untilAsserted(() -> assertThat(order(orderId).get("steps").toString())
                .isEqualTo("{\"inventory\":\"OK\",\"coupon\":\"NOT_NEEDED\",\"risk\":\"OK\",\"payment\":\"PENDING\"}"));
        JsonNode late = order(orderId);
        assertThat(late.get("status").asString()).isEqualTo("REJECTED");
        assertThat(late.get("rejection_reason").asString()).isEqualTo(rejected.get("rejection_reason").asString());
        assertThat(history(orderId, "InventoryReserved")).as("the late success is on the order's timeline")
                .singleElement().satisfies(row -> assertThat(row).containsEntry("applied", true));
        assertThat(cancellations(orderId)).as("the deadline's cancellation undoes it: no second one").hasSize(1);

        // Inventory answers the deadline's OrderCancelled by releasing the late reservation.
        publish(new InventoryReleased(UUID.randomUUID(), orderId, NOW));

        await().untilAsserted(() -> assertThat(order(orderId).get("steps").get("inventory").asString())
                .isEqualTo("COMPENSATED"));
        assertThat(order(orderId).get("status").asString()).isEqualTo("REJECTED");
    }

    @Test
    void deadlineRejectionsAndTheOldestWaitingOrderAreOnPrometheus() {
        long orderId = placeOrder(null);
        awaitOrder(orderId, "REJECTED");

        String metrics = WebTestClient.bindToServer().baseUrl("http://localhost:" + managementPort).build()
                .get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();

        assertThat(metrics).containsPattern("orders_deadline_rejected_total\\{[^}]*\\} [1-9]")
                .containsPattern("orders_finalized_total\\{[^}]*status=\"REJECTED\"[^}]*\\} [1-9]");
        double oldest = gauge(metrics, "orders_oldest_pending_age_seconds");
        assertThat(oldest).as("no order waits much longer than the deadline and a sweep")
                .isBetween(0.0, DEADLINE.toSeconds() + 2.0);
    }

    static double gauge(String metrics, String name) {
        return metrics.lines().filter(line -> line.startsWith(name + "{")).findFirst()
                .map(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .orElseThrow(() -> new AssertionError(name + " is not on /actuator/prometheus"));
    }

    /**
     * Every event of order.events: the OrderCreated too, which must be routable for the OrderCancelled after it to be
     * published (the relay keeps an order's events in order).
     */
    private Queue observeOrderEvents() {
        Queue queue = new Queue("order-events-observer-" + UUID.randomUUID(), false, false, false);
        admin.declareQueue(queue);
        TopicExchange exchange = new TopicExchange("order.events", true, false);
        admin.declareExchange(exchange);
        admin.declareBinding(BindingBuilder.bind(queue).to(exchange).with("#"));
        return queue;
    }

    /** The first message of that type about that order; the ones before it (of other tests too) are dropped. */
    private Message receiveUntil(Queue queue, String eventType, long orderId) {
        for (Message message = rabbit.receive(queue.getName(), 10_000); message != null;
                message = rabbit.receive(queue.getName(), 10_000)) {
            Map<String, Object> headers = message.getMessageProperties().getHeaders();
            if (eventType.equals(headers.get("event_type"))
                    && String.valueOf(orderId).equals(String.valueOf(headers.get("aggregate_id")))) {
                return message;
            }
        }
        return null;
    }

    private long placeOrder(String coupon) {
        String body = "{\"user_id\": 5, \"sku_ids\": [1, 2], \"idempotency_key\": \"" + UUID.randomUUID() + "\""
                + (coupon == null ? "" : ", \"coupon_code\": \"" + coupon + "\"") + "}";
        return client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().isCreated().expectBody(JsonNode.class).returnResult().getResponseBody()
                .get("order_id").asLong();
    }

    private void publish(DomainEvent... replies) {
        for (DomainEvent reply : replies) {
            TestEvents.publish(rabbit, reply);
        }
    }

    private JsonNode awaitOrder(long orderId, String status) {
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(order(orderId).get("status").asString()).isEqualTo(status));
        return order(orderId);
    }

    private JsonNode order(long orderId) {
        return client.get().uri("/orders/{id}", orderId).exchange().expectStatus().isOk().expectBody(JsonNode.class)
                .returnResult().getResponseBody();
    }

    private List<Map<String, Object>> cancellations(long orderId) {
        return db.sql("select id, payload::text as payload from outbox_events where event_type = 'OrderCancelled' "
                + "and aggregate_id = :id").bind("id", String.valueOf(orderId)).fetch().all().collectList().block();
    }

    private List<Map<String, Object>> history(long orderId, String eventType) {
        return db.sql("select event_id, applied, risk_step from order_history where order_id = :id "
                + "and event_type = :type order by id").bind("id", orderId).bind("type", eventType).fetch().all()
                .collectList().block();
    }
}
