package com.example.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;

import com.example.events.CouponNotNeeded;
import com.example.events.InventoryReserved;
import com.example.events.RiskApproved;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.TestEvents;
import com.example.testsupport.TestTokens;

import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

/**
 * Who decides an order's fate when several parties reach for it at once: sweeps on several instances (here several
 * sweeps of one instance, on one database, beside its own background sweep), and a reply racing the deadline. Orders
 * are made to expire by moving their creation back in time, so the default deadline applies.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = { "orders.deadline=10m", "orders.deadline-sweep-interval=200ms" })
@FreshInfrastructure
class OrderDeadlineRaceIntegrationTests {

    private static final Instant NOW = Instant.now();

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    OrderDeadlines deadlines;

    @Autowired
    RabbitTemplate rabbit;

    @Autowired
    DatabaseClient db;

    @Autowired
    MeterRegistry meters;

    WebTestClient client;

    @BeforeEach
    void setUp() {
        client = WebTestClient.bindToServer().baseUrl("http://localhost:" + port)
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + TestTokens.admin()).build();
    }

    @Test
    void concurrentSweepsRejectEveryExpiredOrderExactlyOnce() {
        List<Long> ids = placeOrders(350);
        double rejectedBefore = meters.counter("orders.deadline.rejected").count();

        expire(ids);
        List<Long> swept = Flux.range(0, 4)
                .flatMap(sweeper -> deadlines.sweep().subscribeOn(Schedulers.boundedElastic()))
                .collectList().block(Duration.ofMinutes(2));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(count(
                "select count(*) from orders where status = 'REJECTED' and id = any(:ids)", ids)).isEqualTo(ids.size()));
        assertThat(swept.stream().mapToLong(Long::longValue).sum()).as("between them, the sweeps")
                .isLessThanOrEqualTo(ids.size());
        assertThat(perOrder("select aggregate_id::bigint as order_id, count(*) as n from outbox_events "
                + "where event_type = 'OrderCancelled' and aggregate_id::bigint = any(:ids) group by aggregate_id", ids))
                .as("one OrderCancelled per order").hasSize(ids.size()).allSatisfy((order, n) -> assertThat(n).isOne());
        assertThat(perOrder("select order_id, count(*) as n from order_history where event_type = 'Deadline' "
                + "and order_id = any(:ids) group by order_id", ids))
                .as("one deadline per order").hasSize(ids.size()).allSatisfy((order, n) -> assertThat(n).isOne());
        // Counted after each batch's commit, which may trail the rows by a moment.
        await().untilAsserted(() -> assertThat(meters.counter("orders.deadline.rejected").count() - rejectedBefore)
                .isEqualTo(ids.size()));
    }

    @Test
    void aReplyRacingTheDeadlineEndsInOneOutcomeEitherWay() {
        List<Long> ids = placeOrders(60);

        // The replies are on their way while the orders expire and are swept.
        for (long orderId : ids) {
            TestEvents.publish(rabbit, new RiskApproved(UUID.randomUUID(), orderId, NOW));
            TestEvents.publish(rabbit, new InventoryReserved(UUID.randomUUID(), orderId, List.of(1L), 0L, NOW));
            TestEvents.publish(rabbit, new CouponNotNeeded(UUID.randomUUID(), orderId, NOW));
        }
        expire(ids);
        deadlines.sweep().block(Duration.ofMinutes(1));

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(count(
                "select count(*) from order_history where event_type in ('RiskApproved', 'InventoryReserved', "
                        + "'CouponNotNeeded') and order_id = any(:ids)", ids)).as("every reply applied")
                .isEqualTo(3L * ids.size()));
        Map<Long, Long> cancellations = perOrder("select aggregate_id::bigint as order_id, count(*) as n "
                + "from outbox_events where event_type = 'OrderCancelled' and aggregate_id::bigint = any(:ids) "
                + "group by aggregate_id", ids);
        Map<Long, Long> deadlineRows = perOrder("select order_id, count(*) as n from order_history "
                + "where event_type = 'Deadline' and order_id = any(:ids) group by order_id", ids);
        Map<String, Long> outcomes = ids.stream().map(this::order).collect(Collectors.groupingBy(order -> {
            long orderId = order.get("order_id").asLong();
            String steps = order.get("steps").toString();
            if (order.get("status").asString().equals("CONFIRMED")) {
                assertThat(steps).isEqualTo("{\"inventory\":\"OK\",\"coupon\":\"NOT_NEEDED\",\"risk\":\"OK\",\"payment\":\"NOT_NEEDED\"}");
                assertThat(order.get("rejection_reason").isNull()).isTrue();
                assertThat(cancellations).as("order %d: confirmed, never cancelled", orderId).doesNotContainKey(orderId);
                assertThat(deadlineRows).doesNotContainKey(orderId);
            } else {
                assertThat(order.get("status").asString()).isEqualTo("REJECTED");
                assertThat(order.get("rejection_reason").asString()).startsWith("deadline: no answer from");
                // Every reply came, in time or late; the late reservation waits for the cancellation to release it.
                assertThat(steps).isEqualTo("{\"inventory\":\"OK\",\"coupon\":\"NOT_NEEDED\",\"risk\":\"OK\",\"payment\":\"PENDING\"}");
                assertThat(cancellations.get(orderId)).as("order %d: cancelled once", orderId).isOne();
                assertThat(deadlineRows.get(orderId)).isOne();
            }
            return order.get("status").asString();
        }, Collectors.counting()));
        assertThat(outcomes.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(ids.size());
        System.out.println("Replies against the deadline: " + outcomes);
    }

    @Test
    void theAgeOfTheOldestWaitingOrderIsOnPrometheus() {
        long orderId = placeOrders(1).get(0);
        db.sql("update orders set created_at = now() - interval '3 minutes' where id = :id").bind("id", orderId).then()
                .block();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String metrics = WebTestClient.bindToServer().baseUrl("http://localhost:" + managementPort).build()
                    .get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
                    .expectBody(String.class).returnResult().getResponseBody();
            assertThat(OrderDeadlineIntegrationTests.gauge(metrics, "orders_oldest_pending_age_seconds"))
                    .isBetween(180.0, 240.0);
        });
    }

    private List<Long> placeOrders(int count) {
        WebClient web = WebClient.builder().baseUrl("http://localhost:" + port)
                .defaultHeaders(headers -> headers.setBearerAuth(TestTokens.customer(9))).build();
        return Flux.range(0, count)
                .flatMap(i -> web.post().uri("/orders").contentType(MediaType.APPLICATION_JSON)
                        .bodyValue("{\"user_id\": 9, \"sku_ids\": [1], \"idempotency_key\": \"" + UUID.randomUUID() + "\"}")
                        .retrieve().bodyToMono(JsonNode.class).map(order -> order.get("order_id").asLong()), 16)
                .collectList().block(Duration.ofMinutes(2));
    }

    /**
     * Placed an hour ago: past the deadline, for every sweeper at once. One order per statement: the inbox applies the
     * replies racing this in batches, each holding the rows of several orders, so one statement updating them all
     * would take the same locks in another order and could deadlock with a batch.
     */
    private void expire(List<Long> ids) {
        Flux.fromIterable(ids)
                .concatMap(id -> db.sql("update orders set created_at = now() - interval '1 hour' where id = :id")
                        .bind("id", id).then())
                .then().block(Duration.ofMinutes(1));
    }

    private JsonNode order(long orderId) {
        return client.get().uri("/orders/{id}", orderId).exchange().expectStatus().isOk().expectBody(JsonNode.class)
                .returnResult().getResponseBody();
    }

    private long count(String sql, List<Long> ids) {
        return db.sql(sql).bind("ids", ids.toArray(Long[]::new)).map(row -> row.get(0, Long.class)).one().block();
    }

    private Map<Long, Long> perOrder(String sql, List<Long> ids) {
        return db.sql(sql).bind("ids", ids.toArray(Long[]::new))
                .map(row -> Map.entry(row.get("order_id", Long.class), row.get("n", Long.class))).all()
                .collectMap(Map.Entry::getKey, Map.Entry::getValue).block();
    }
}
