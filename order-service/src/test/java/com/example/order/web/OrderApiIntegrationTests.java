package com.example.order.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;

import com.example.events.EventJson;
import com.example.events.OrderCreated;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.AuthorizationMatrix;
import com.example.testsupport.OpenApiValidation;
import com.example.testsupport.TestTokens;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Result;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

// The operators' query is shown orders placed hours ago: a day's deadline leaves them CREATED meanwhile.
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "orders.deadline=1d")
@FreshInfrastructure
@ExtendWith(OutputCaptureExtension.class)
class OrderApiIntegrationTests {

    private static final String PROBLEM = "https://example.com/problems/";
    private static final AtomicLong USERS = new AtomicLong(1000);

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    DatabaseClient db;

    @Autowired
    ConnectionFactory connectionFactory;

    WebTestClient client;
    long user;

    @BeforeEach
    void setUp() {
        client = OpenApiValidation.client(port);
        user = USERS.incrementAndGet();
    }

    @Test
    void createsAnOrderWithItsOutboxEventInOneGo() {
        UUID key = UUID.randomUUID();
        JsonNode body = post(order(user, List.of(1001, 1002, 1002), key, "WELCOME10"))
                .expectStatus().isCreated()
                .expectHeader().valueMatches("Location", "/orders/\\d+")
                .expectHeader().doesNotExist("Idempotent-Replayed")
                .expectBody(JsonNode.class).returnResult().getResponseBody();

        long orderId = body.get("order_id").asLong();
        assertThat(body.get("user_id").asLong()).isEqualTo(user);
        assertThat(body.get("status").asString()).isEqualTo("CREATED");
        assertThat(body.get("sku_ids").toString()).isEqualTo("[1001,1002,1002]");
        assertThat(body.get("coupon_code").asString()).isEqualTo("WELCOME10");
        assertThat(body.get("steps").toString())
                .isEqualTo("{\"inventory\":\"PENDING\",\"coupon\":\"PENDING\",\"risk\":\"PENDING\",\"payment\":\"PENDING\"}");
        assertThat(body.has("rejection_reason")).isTrue();
        assertThat(body.get("rejection_reason").isNull()).isTrue();
        assertThat(body.has("idempotency_key")).isFalse();
        assertThat(body.get("created_at").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");

        Map<String, Object> outbox = db.sql("select id, aggregate_type, aggregate_id, event_type, exchange, "
                + "payload::text as payload, sent_at from outbox_events where aggregate_id = :id")
                .bind("id", String.valueOf(orderId)).fetch().one().block();
        assertThat(outbox).containsEntry("aggregate_type", "order").containsEntry("event_type", "OrderCreated")
                .containsEntry("exchange", "order.events");
        OrderCreated event = EventJson.read((String) outbox.get("payload"), OrderCreated.class);
        assertThat(event.eventId()).isEqualTo(outbox.get("id"));
        assertThat(event.orderId()).isEqualTo(orderId);
        assertThat(event.userId()).isEqualTo(user);
        assertThat(event.skuIds()).containsExactly(1001L, 1002L, 1002L);
        assertThat(event.couponCode()).isEqualTo("WELCOME10");
        JsonNode payload = EventJson.mapper().readTree((String) outbox.get("payload"));
        assertThat(payload.propertyNames()).containsExactlyInAnyOrder("event_id", "order_id", "user_id", "sku_ids",
                "coupon_code", "occurred_at");

        // Written by the same statement as the order: its lines, and its timeline's first entry, the OrderCreated.
        assertThat(db.sql("select sku_id from order_lines where order_id = :id order by line_no")
                .bind("id", orderId).map(row -> row.get("sku_id", Long.class)).all().collectList().block())
                .containsExactly(1001L, 1002L, 1002L);
        Map<String, Object> created = db.sql("select event_id, event_type, applied, note, status, inventory_step, "
                + "coupon_step, risk_step from order_history where order_id = :id")
                .bind("id", orderId).fetch().one().block();
        assertThat(created).containsEntry("event_id", event.eventId()).containsEntry("event_type", "OrderCreated")
                .containsEntry("applied", true).containsEntry("status", "CREATED")
                .containsEntry("inventory_step", "PENDING").containsEntry("coupon_step", "PENDING")
                .containsEntry("risk_step", "PENDING");
        assertThat(created.get("note")).isNull();
    }

    @Test
    void aValidTraceparentTravelsWithTheEventAndAnInvalidOneIsDropped() {
        String valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        Map<String, String> sent = new java.util.LinkedHashMap<>();
        sent.put(valid, valid);
        sent.put("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 and more", null);
        sent.put("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null);
        sent.put("x".repeat(4000), null);
        sent.forEach((header, stored) -> {
            JsonNode body = client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON)
                    .header("traceparent", header).bodyValue(order(user, List.of(1001), UUID.randomUUID(), null))
                    .exchange()
                    .expectStatus().isCreated()
                    .expectBody(JsonNode.class).returnResult().getResponseBody();
            Map<String, Object> outbox = db.sql("select traceparent from outbox_events where aggregate_id = :id")
                    .bind("id", body.get("order_id").asString()).fetch().one().block();
            assertThat(outbox.get("traceparent")).as(header).isEqualTo(stored);
        });
    }

    @Test
    void fiftyConcurrentIdenticalRequestsCreateExactlyOneOrder() {
        String body = order(user, List.of(7, 8), UUID.randomUUID(), null);
        WebClient web = WebClient.builder().baseUrl("http://localhost:" + port)
                .defaultHeaders(headers -> headers.setBearerAuth(TestTokens.customer(user))).build();

        List<ResponseEntity<JsonNode>> responses = Flux.range(0, 50)
                .flatMap(i -> web.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                        .retrieve().toEntity(JsonNode.class), 50)
                .collectList().block(Duration.ofSeconds(60));

        assertThat(responses).hasSize(50);
        assertThat(responses).extracting(r -> r.getBody().get("order_id").asLong()).containsOnly(
                responses.get(0).getBody().get("order_id").asLong());
        assertThat(responses).filteredOn(r -> r.getStatusCode() == HttpStatus.CREATED).hasSize(1);
        assertThat(responses).filteredOn(r -> r.getStatusCode() == HttpStatus.OK).hasSize(49)
                .allSatisfy(r -> assertThat(r.getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true"));
        assertThat(count("select count(*) from orders where user_id = " + user)).isEqualTo(1);
        assertThat(count("select count(*) from outbox_events o join orders r on o.aggregate_id = r.id::text "
                + "where r.user_id = " + user)).isEqualTo(1);
        // The 49 that lost the race inserted nothing: neither lines nor history rows.
        assertThat(count("select count(*) from order_lines l join orders r on l.order_id = r.id "
                + "where r.user_id = " + user)).isEqualTo(2);
        assertThat(count("select count(*) from order_history h join orders r on h.order_id = r.id "
                + "where r.user_id = " + user)).isEqualTo(1);
    }

    /**
     * A first request still committing its order when a retry's statement starts: the retry's insert waits for that
     * commit and inserts nothing, and its own statement cannot see the order (its snapshot is older), so a read of its
     * own answers it. Here the first request's order has another payload, and the retry is refused with it.
     */
    @Test
    void aRequestThatMeetsItsIntentStillCommittingAnswersWithWhatThatCommitted() throws Exception {
        UUID key = UUID.randomUUID();
        Connection first = Mono.from(connectionFactory.create()).block(Duration.ofSeconds(10));
        try {
            Mono.from(first.beginTransaction()).block(Duration.ofSeconds(10));
            Flux.from(first.createStatement("""
                    insert into orders (user_id, idempotency_key, request_fingerprint, created_at, updated_at)
                    values ($1, $2, 'another payload', now(), now())""")
                    .bind("$1", user).bind("$2", key).execute())
                    .flatMap(Result::getRowsUpdated).blockLast(Duration.ofSeconds(10));
            CompletableFuture<ResponseEntity<JsonNode>> retry = WebClient.builder()
                    .baseUrl("http://localhost:" + port)
                    .defaultHeaders(headers -> headers.setBearerAuth(TestTokens.customer(user))).build()
                    .post().uri("/orders").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(order(user, List.of(4), key, null))
                    .exchangeToMono(response -> response.toEntity(JsonNode.class)).toFuture();
            await().atMost(Duration.ofSeconds(10)).until(() -> count("""
                    select count(*) from pg_stat_activity
                     where wait_event_type = 'Lock' and query like '%insert into orders%'""") == 1);
            assertThat(retry).isNotDone();

            Mono.from(first.commitTransaction()).block(Duration.ofSeconds(10));

            ResponseEntity<JsonNode> refused = retry.get(10, TimeUnit.SECONDS);
            assertThat(refused.getStatusCode().value()).isEqualTo(422);
            assertThat(refused.getBody().get("type").asString()).isEqualTo(PROBLEM + "idempotency-key-reused");
        } finally {
            Mono.from(first.close()).block(Duration.ofSeconds(10));
        }
        assertThat(count("select count(*) from orders where user_id = " + user)).isEqualTo(1);
    }

    @Test
    void keysAreScopedPerUser() {
        UUID key = UUID.randomUUID();
        long first = post(order(user, List.of(1), key, null)).expectStatus().isCreated()
                .expectBody(JsonNode.class).returnResult().getResponseBody().get("order_id").asLong();
        long otherUser = USERS.incrementAndGet();
        long second = post(order(otherUser, List.of(1), key, null)).expectStatus().isCreated()
                .expectBody(JsonNode.class).returnResult().getResponseBody().get("order_id").asLong();

        assertThat(second).isNotEqualTo(first);
    }

    @Test
    void aReplayReturnsTheOrderAsItIsNowWhateverTheSkuOrder() {
        UUID key = UUID.randomUUID();
        long orderId = post(order(user, List.of(3, 1, 3), key, "SPRING")).expectStatus().isCreated()
                .expectBody(JsonNode.class).returnResult().getResponseBody().get("order_id").asLong();
        db.sql("update orders set status = 'CONFIRMED', inventory_step = 'OK', coupon_step = 'OK', risk_step = 'OK', "
                + "updated_at = now() where id = :id").bind("id", orderId).then().block();

        post(order(user, List.of(1, 3, 3), key, "SPRING"))
                .expectStatus().isOk()
                .expectHeader().valueEquals("Idempotent-Replayed", "true")
                .expectBody()
                .jsonPath("$.order_id").isEqualTo(orderId)
                .jsonPath("$.status").isEqualTo("CONFIRMED")
                .jsonPath("$.steps.inventory").isEqualTo("OK")
                .jsonPath("$.sku_ids").isEqualTo(List.of(3, 1, 3));
    }

    @Test
    void theSameKeyWithADifferentPayloadIsRefused() {
        UUID key = UUID.randomUUID();
        post(order(user, List.of(5), key, null)).expectStatus().isCreated();

        for (String misuse : List.of(order(user, List.of(5, 5), key, null), order(user, List.of(6), key, null),
                order(user, List.of(5), key, "OTHER"))) {
            problem(post(misuse), 422, "idempotency-key-reused").jsonPath("$.retryable").isEqualTo(false);
        }
        assertThat(count("select count(*) from orders where user_id = " + user)).isEqualTo(1);
    }

    static List<Arguments> invalidBodies() {
        String key = UUID.randomUUID().toString();
        String hundredAndOne = Flux.range(1, 101).map(String::valueOf).collectList().block().toString();
        return List.of(
                Arguments.of("malformed JSON", "{\"user_id\": 1, \"sku_ids\": [1", "body"),
                Arguments.of("missing user_id", "{\"sku_ids\": [1], \"idempotency_key\": \"" + key + "\"}", "user_id"),
                Arguments.of("missing sku_ids", "{\"user_id\": 1, \"idempotency_key\": \"" + key + "\"}", "sku_ids"),
                Arguments.of("missing key", "{\"user_id\": 1, \"sku_ids\": [1]}", "idempotency_key"),
                Arguments.of("non-UUID key", "{\"user_id\": 1, \"sku_ids\": [1], \"idempotency_key\": \"abc\"}",
                        "idempotency_key"),
                Arguments.of("user_id as text", "{\"user_id\": \"one\", \"sku_ids\": [1], \"idempotency_key\": \""
                        + key + "\"}", "user_id"),
                Arguments.of("user_id as fraction", "{\"user_id\": 1.5, \"sku_ids\": [1], \"idempotency_key\": \""
                        + key + "\"}", "user_id"),
                Arguments.of("sku_ids not a list", "{\"user_id\": 1, \"sku_ids\": 1, \"idempotency_key\": \""
                        + key + "\"}", "sku_ids"),
                Arguments.of("zero user", "{\"user_id\": 0, \"sku_ids\": [1], \"idempotency_key\": \"" + key + "\"}",
                        "user_id"),
                Arguments.of("empty sku_ids", "{\"user_id\": 1, \"sku_ids\": [], \"idempotency_key\": \"" + key + "\"}",
                        "sku_ids"),
                Arguments.of("101 sku ids", "{\"user_id\": 1, \"sku_ids\": " + hundredAndOne
                        + ", \"idempotency_key\": \"" + key + "\"}", "sku_ids"),
                Arguments.of("negative sku id", "{\"user_id\": 1, \"sku_ids\": [1, -2], \"idempotency_key\": \""
                        + key + "\"}", "sku_ids[1]"),
                Arguments.of("bad coupon", "{\"user_id\": 1, \"sku_ids\": [1], \"idempotency_key\": \"" + key
                        + "\", \"coupon_code\": \"10% OFF\"}", "coupon_code"),
                Arguments.of("empty coupon", "{\"user_id\": 1, \"sku_ids\": [1], \"idempotency_key\": \"" + key
                        + "\", \"coupon_code\": \"\"}", "coupon_code"),
                Arguments.of("coupon too long", "{\"user_id\": 1, \"sku_ids\": [1], \"idempotency_key\": \"" + key
                        + "\", \"coupon_code\": \"" + "A".repeat(65) + "\"}", "coupon_code"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidBodies")
    void invalidRequestsAreRefusedWithFieldErrors(String name, String body, String field) {
        problem(post(body), 400, null)
                .jsonPath("$.retryable").isEqualTo(false)
                .jsonPath("$.errors[?(@.field == '" + field + "')].message").exists();
        assertThat(count("select count(*) from orders where user_id = 1")).as("nothing created").isZero();
    }

    /** The parser's own words (token names, positions, Java types) are no business of the client's. */
    @Test
    void malformedJsonIsNamedWithoutTheParsersInternals() {
        problem(post("{\"user_id\": 1, \"sku_ids\": [1"), 400, "malformed-request")
                .jsonPath("$.detail").isEqualTo("The request body is not valid JSON.")
                .jsonPath("$.errors[0].field").isEqualTo("body")
                .jsonPath("$.errors[0].message").isEqualTo("is not valid JSON");
    }

    @Test
    void aWrongContentTypeIs415() {
        problem(client.post().uri("/orders").contentType(MediaType.TEXT_PLAIN)
                .bodyValue(order(user, List.of(1), UUID.randomUUID(), null)).exchange(), 415, "unsupported-media-type");
    }

    @Test
    void aBodyOver64KiBIs413() {
        String padding = "x".repeat(70 * 1024);
        String body = "{\"user_id\": " + user + ", \"sku_ids\": [1], \"idempotency_key\": \"" + UUID.randomUUID()
                + "\", \"padding\": \"" + padding + "\"}";

        problem(post(body), 413, "payload-too-large");
    }

    @Test
    void getByIdAndByIntent() {
        UUID key = UUID.randomUUID();
        long orderId = post(order(user, List.of(9), key, null)).expectStatus().isCreated()
                .expectBody(JsonNode.class).returnResult().getResponseBody().get("order_id").asLong();

        client.get().uri("/orders/{id}", orderId).exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.order_id").isEqualTo(orderId).jsonPath("$.coupon_code").isEmpty();
        client.get().uri("/orders?user_id={u}&idempotency_key={k}", user, key).exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.order_id").isEqualTo(orderId);
        problem(client.get().uri("/orders/{id}", orderId + 1_000_000).exchange(), 404, "not-found");
        problem(client.get().uri("/orders?user_id={u}&idempotency_key={k}", user, UUID.randomUUID()).exchange(), 404,
                "not-found").jsonPath("$.detail").value(detail -> assertThat((String) detail)
                        .contains("did not happen").contains("retry with the same key is safe"));
        problem(client.get().uri("/orders?user_id={u}&idempotency_key=nope", user).exchange(), 400, null)
                .jsonPath("$.errors[0].field").isEqualTo("idempotency_key");
        problem(client.get().uri("/orders/abc").exchange(), 400, "validation-failed")
                .jsonPath("$.errors[0].field").isEqualTo("order_id");
    }

    @Test
    void listsTheOrdersWaitingInAStatusOldestFirst() {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(post(order(user, List.of(1), UUID.randomUUID(), null)).expectStatus().isCreated()
                    .expectBody(JsonNode.class).returnResult().getResponseBody().get("order_id").asLong());
        }
        placedAgo(ids.get(0), "5 hours");
        placedAgo(ids.get(1), "2 hours");
        placedAgo(ids.get(2), "4 hours");
        placedAgo(ids.get(3), "3 hours");
        placedAgo(ids.get(4), "30 minutes");
        db.sql("update orders set status = 'CONFIRMED', inventory_step = 'OK', coupon_step = 'NOT_NEEDED', "
                + "risk_step = 'OK' where id = :id").bind("id", ids.get(3)).then().block();

        assertThat(orderIds("/orders?status=CREATED&older_than=PT1H"))
                .containsExactly(ids.get(0), ids.get(2), ids.get(1));
        assertThat(orderIds("/orders?status=CREATED&older_than=PT1H&limit=2")).containsExactly(ids.get(0), ids.get(2));
        assertThat(orderIds("/orders?status=CONFIRMED&older_than=PT1H")).containsExactly(ids.get(3));
        assertThat(orderIds("/orders?status=CREATED&older_than=P1D")).isEmpty();
        assertThat(orderIds("/orders?status=CREATED")).as("older_than defaults to PT0S")
                .startsWith(ids.get(0), ids.get(2), ids.get(1), ids.get(4));
        client.get().uri("/orders?status=CREATED&older_than=PT1H&limit=1").exchange().expectStatus().isOk()
                .expectBody()
                .jsonPath("$[0].order_id").isEqualTo(ids.get(0))
                .jsonPath("$[0].status").isEqualTo("CREATED")
                .jsonPath("$[0].steps.risk").isEqualTo("PENDING")
                .jsonPath("$[0].rejection_reason").isEmpty();
    }

    static List<Arguments> invalidQueries() {
        UUID key = UUID.randomUUID();
        return List.of(
                Arguments.of("", "user_id"),
                Arguments.of("", "status"),
                Arguments.of("?older_than=PT1M", "status"),
                Arguments.of("?limit=10", "status"),
                Arguments.of("?status=STUCK&older_than=PT1M", "status"),
                Arguments.of("?status=created", "status"),
                Arguments.of("?status=CREATED&older_than=1m", "older_than"),
                Arguments.of("?status=CREATED&older_than=-PT1M", "older_than"),
                Arguments.of("?status=CREATED&older_than=P36501D", "older_than"),
                Arguments.of("?status=CREATED&limit=0", "limit"),
                Arguments.of("?status=CREATED&limit=101", "limit"),
                Arguments.of("?status=CREATED&limit=ten", "limit"),
                Arguments.of("?user_id=1&idempotency_key=" + key + "&status=CREATED", "status"),
                Arguments.of("?user_id=1&idempotency_key=" + key + "&older_than=PT1M", "older_than"),
                Arguments.of("?user_id=1", "idempotency_key"),
                Arguments.of("?idempotency_key=" + key, "user_id"),
                Arguments.of("?user_id=1&older_than=PT1M", "older_than"));
    }

    /** Neither question, both at once, or one asked wrongly: never a guess at what was meant. */
    @ParameterizedTest(name = "GET /orders{0} -> {1}")
    @MethodSource("invalidQueries")
    void aQueryThatAsksNeitherOrBothOrAsksWronglyIsRefusedWithFieldErrors(String query, String field) {
        problem(client.get().uri("/orders" + query).exchange(), 400, "validation-failed")
                .jsonPath("$.retryable").isEqualTo(false)
                .jsonPath("$.errors[?(@.field == '" + field + "')].message").exists();
    }

    private void placedAgo(long orderId, String age) {
        db.sql("update orders set created_at = now() - '" + age + "'::interval where id = :id").bind("id", orderId)
                .then().block();
    }

    private List<Long> orderIds(String uri) {
        JsonNode list = client.get().uri(uri).exchange().expectStatus().isOk().expectBody(JsonNode.class)
                .returnResult().getResponseBody();
        assertThat(list.isArray()).as(uri + " answers an array").isTrue();
        List<Long> ids = new ArrayList<>();
        list.forEach(order -> ids.add(order.get("order_id").asLong()));
        return ids;
    }

    @Test
    void requestIdsAreEchoedOrGenerated() {
        client.get().uri("/orders/1").header("X-Request-Id", "trace-me-42").exchange()
                .expectHeader().valueEquals("X-Request-Id", "trace-me-42");
        client.get().uri("/orders/1").exchange()
                .expectHeader().valueMatches("X-Request-Id", "[0-9a-f-]{36}");
    }

    @Test
    void theRequestIdIsInTheLogLinesOfItsRequest(CapturedOutput output) {
        client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).header("X-Request-Id", "log-me-4711")
                .bodyValue(order(user, List.of(1), UUID.randomUUID(), null)).exchange().expectStatus().isCreated();

        assertThat(output.getAll().lines().filter(line -> line.contains("created for user " + user)))
                .singleElement().asString().contains("log-me-4711");
    }

    @Test
    void requestIdIsNeverAnIdempotencyKey() {
        client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).header("X-Request-Id", "same")
                .bodyValue(order(user, List.of(1), UUID.randomUUID(), null)).exchange().expectStatus().isCreated();
        client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).header("X-Request-Id", "same")
                .bodyValue(order(user, List.of(1), UUID.randomUUID(), null)).exchange().expectStatus().isCreated();
    }

    @Test
    void countsCreatedReplayedAndRefusedOrders() {
        UUID key = UUID.randomUUID();
        post(order(user, List.of(4), key, null)).expectStatus().isCreated();
        post(order(user, List.of(4), key, null)).expectStatus().isOk();
        post(order(user, List.of(5), key, null)).expectStatus().isEqualTo(422);

        String metrics = WebTestClient.bindToServer().baseUrl("http://localhost:" + managementPort).build()
                .get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(metrics).containsPattern("orders_placed_total\\{[^}]*\\} [1-9]")
                .containsPattern("orders_replayed_total\\{[^}]*\\} [1-9]")
                .containsPattern("orders_idempotency_key_reused_total\\{[^}]*\\} [1-9]")
                .contains("http_server_requests_seconds_count{");
    }

    /** The description says what goes over the wire (snake_case, problems, headers); its exchanges prove it. */
    @Test
    void describesItselfWithOpenApi() {
        client.get().uri("/v3/api-docs").exchange().expectStatus().isOk()
                .expectBody()
                .jsonPath("$.openapi").isEqualTo("3.0.1")
                .jsonPath("$.info.title").isEqualTo("Orders API")
                .jsonPath("$.paths['/orders'].post.operationId").isEqualTo("placeOrder")
                .jsonPath("$.paths['/orders'].post.responses['201'].headers.Location").exists()
                .jsonPath("$.paths['/orders'].post.responses['200'].headers['Idempotent-Replayed']").exists()
                .jsonPath("$.paths['/orders'].post.responses['422'].content['application/problem+json'].schema['$ref']")
                .isEqualTo("#/components/schemas/Problem")
                .jsonPath("$.paths['/orders'].post.responses['503'].headers['Retry-After']").exists()
                .jsonPath("$.paths['/orders/{order_id}'].get.operationId").isEqualTo("getOrder")
                .jsonPath("$.paths['/orders'].get.operationId").isEqualTo("findOrders")
                .jsonPath("$.paths['/orders'].get.parameters[?(@.name == 'user_id')].required").isEqualTo(List.of(false))
                .jsonPath("$.paths['/orders'].get.parameters[?(@.name == 'status')].schema.enum[*]")
                .value(values -> assertThat(values).asString().contains("CREATED", "REJECTED"))
                .jsonPath("$.paths['/orders'].get.responses['200'].content['application/json'].schema.oneOf[*]['$ref']")
                .isEqualTo(List.of("#/components/schemas/Order", "#/components/schemas/OrderList"))
                .jsonPath("$.components.schemas.OrderList.type").isEqualTo("array")
                .jsonPath("$.components.schemas.OrderList.properties").doesNotExist()
                .jsonPath("$.components.schemas.OrderSteps.properties.risk.enum").value(values -> assertThat(values)
                        .asString().contains("TIMED_OUT"))
                .jsonPath("$.paths['/orders/{order_id}'].get.responses['404']").exists()
                .jsonPath("$.components.schemas.PlaceOrder.properties.idempotency_key.format").isEqualTo("uuid")
                .jsonPath("$.components.schemas.PlaceOrder.required").value(required -> assertThat(required)
                        .asString().contains("user_id", "sku_ids", "idempotency_key").doesNotContain("coupon_code"))
                .jsonPath("$.components.schemas.Order.properties.coupon_code.nullable").isEqualTo(true)
                .jsonPath("$.components.schemas.Order.required").value(required -> assertThat(required).asString()
                        .contains("order_id", "coupon_code", "rejection_reason", "steps"));
    }

    /**
     * Every exchange of this class is checked against the published description (OpenApiValidation); this proves
     * the check would catch a description that drifts from the wire, here the camelCase names it once had.
     */
    @Test
    void aDescriptionThatDriftsFromTheWireFailsTheExchangesCheckedAgainstIt() {
        String published = OpenApiValidation.fetch("http://localhost:" + port + OpenApiValidation.API_DOCS);
        String camelCase = published.replace("\"user_id\"", "\"userId\"");
        WebTestClient checkedAgainstTheBrokenCopy = OpenApiValidation.clientFor(port, camelCase);

        assertThatThrownBy(() -> checkedAgainstTheBrokenCopy.post().uri("/orders").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(order(user, List.of(1001), UUID.randomUUID(), null)).exchange())
                .hasRootCauseInstanceOf(AssertionError.class)
                .rootCause().hasMessageContaining("does not match the service's API description")
                .hasMessageContaining("userId");
        // The same exchange passes against the description as published.
        post(order(user, List.of(1001), UUID.randomUUID(), null)).expectStatus().isCreated();
    }

    /** The contract's rules for customers: their own orders only; another user's order does not exist for them. */
    @Test
    void aCustomerPlacesAndSeesOnlyTheirOwnOrders() {
        long other = USERS.incrementAndGet();
        UUID key = UUID.randomUUID();
        String mine = order(user, List.of(1001), key, null);

        problem(post(mine, TestTokens.customer(other)), 403, "forbidden");
        assertThat(count("select count(*) from orders where user_id = " + user)).isZero();
        long orderId = post(mine, TestTokens.customer(user)).expectStatus().isCreated()
                .expectBody(JsonNode.class).returnResult().getResponseBody().get("order_id").asLong();
        post(mine, TestTokens.customer(user)).expectStatus().isOk().expectHeader().valueEquals("Idempotent-Replayed", "true");

        get("/orders/" + orderId, TestTokens.customer(user)).expectStatus().isOk()
                .expectBody().jsonPath("$.order_id").isEqualTo(orderId);
        get("/orders?user_id=" + user + "&idempotency_key=" + key, TestTokens.customer(user)).expectStatus().isOk()
                .expectBody().jsonPath("$.order_id").isEqualTo(orderId);
        problem(get("/orders/" + orderId, TestTokens.customer(other)), 404, "not-found");
        problem(get("/orders?user_id=" + user + "&idempotency_key=" + key, TestTokens.customer(other)), 404,
                "not-found");
        problem(get("/orders?status=CREATED", TestTokens.customer(user)), 403, "forbidden");
        get("/orders/" + orderId, TestTokens.admin()).expectStatus().isOk();
        get("/orders?user_id=" + user + "&idempotency_key=" + key, TestTokens.admin()).expectStatus().isOk();
        // An operator may place an order for any user (support acting on a customer's behalf).
        post(order(other, List.of(1001), UUID.randomUUID(), null), TestTokens.admin()).expectStatus().isCreated();

        // Only the owner (or an operator) cancels: another customer is told the order does not exist.
        problem(client.post().uri("/orders/{id}/cancellation", orderId)
                .headers(headers -> headers.setBearerAuth(TestTokens.customer(other))).exchange(), 404, "not-found");
        client.post().uri("/orders/{id}/cancellation", orderId)
                .headers(headers -> headers.setBearerAuth(TestTokens.customer(user))).exchange()
                .expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("CANCELLED");
        assertThat(db.sql("select payload ->> 'reason' from outbox_events where event_type = 'OrderCancelled' "
                + "and aggregate_id = :id").bind("id", String.valueOf(orderId)).map(row -> row.get(0, String.class))
                .all().collectList().block()).containsExactly("cancelled by its owner");
    }

    @Test
    void theOrdersApiWantsAValidToken() {
        new AuthorizationMatrix(port).assertTokenRequired(List.of(
                AuthorizationMatrix.Endpoint.post("/orders", order(user, List.of(1001), UUID.randomUUID(), null)),
                AuthorizationMatrix.Endpoint.get("/orders/1"),
                AuthorizationMatrix.Endpoint.post("/orders/1/cancellation", ""),
                AuthorizationMatrix.Endpoint.get("/orders?user_id=" + user + "&idempotency_key=" + UUID.randomUUID())));
        assertThat(count("select count(*) from orders where user_id = " + user)).isZero();
    }

    private WebTestClient.ResponseSpec post(String body, String token) {
        return client.post().uri("/orders").headers(headers -> headers.setBearerAuth(token))
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    private WebTestClient.ResponseSpec get(String uri, String token) {
        return client.get().uri(uri).headers(headers -> headers.setBearerAuth(token)).exchange();
    }

    private WebTestClient.ResponseSpec post(String body) {
        return client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    private static WebTestClient.BodyContentSpec problem(WebTestClient.ResponseSpec response, int status, String type) {
        WebTestClient.BodyContentSpec body = response.expectStatus().isEqualTo(status)
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.status").isEqualTo(status)
                .jsonPath("$.title").isNotEmpty()
                .jsonPath("$.detail").isNotEmpty()
                .jsonPath("$.retryable").isBoolean()
                .jsonPath("$.trace").doesNotExist();
        return type == null ? body.jsonPath("$.type").isNotEmpty() : body.jsonPath("$.type").isEqualTo(PROBLEM + type);
    }

    private long count(String sql) {
        return db.sql(sql).map(row -> row.get(0, Long.class)).one().block();
    }

    static String order(long user, List<Integer> skuIds, UUID key, String coupon) {
        return "{\"user_id\": " + user + ", \"sku_ids\": " + skuIds + ", \"idempotency_key\": \"" + key + "\""
                + (coupon == null ? "" : ", \"coupon_code\": \"" + coupon + "\"") + "}";
    }

    /** The operator endpoints the messaging starter gives every service, as the description says. */
    @Test
    void operatorsSeeADeadLetterQueuePerConsumedExchangeAndTheParkedOutboxEvents() {
        client.get().uri("/admin/dead-letters").exchange()
                .expectStatus().isOk()
                .expectBody().json("""
                        [{"queue": "coupon.events.order-service.dlq", "messages": 0},
                         {"queue": "inventory.events.order-service.dlq", "messages": 0},
                         {"queue": "payment.events.order-service.dlq", "messages": 0},
                         {"queue": "risk.events.order-service.dlq", "messages": 0}]""", true);
        client.post().uri("/admin/dead-letters/{queue}/redrive", "risk.events.order-service.dlq").exchange()
                .expectStatus().isOk()
                .expectBody().json("{\"moved\": 0}", true);
        client.post().uri("/admin/dead-letters/{queue}/redrive", "order.events.inventory-service.dlq").exchange()
                .expectStatus().isNotFound();
        client.get().uri("/admin/outbox/parked?limit=10").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$").isArray();
    }

    /** The copy in docs/openapi/, from which clients are generated, is the description the service serves. */
    @Test
    void theDescriptionPublishedInTheRepositoryIsTheOneServed() throws java.io.IOException {
        OpenApiValidation.assertPublished(port, java.nio.file.Path.of("../docs/openapi/order-service.json"));
    }
}
