package com.example.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;

import com.example.service.faults.CrashPoints;
import com.example.testsupport.JavaProcess;
import com.example.testsupport.TestInfrastructure;
import com.example.testsupport.TestTokens;

import tools.jackson.databind.JsonNode;

/**
 * The process dies after the order transaction committed and before the client got its answer. The
 * client retries with the same key against the restarted service and gets the committed order.
 */
class OrderCrashAfterCommitIntegrationTests {

    private static final Path JAR = Path.of("target/order-service.jar");
    private static final Path LOGS = Path.of("target/it-logs");

    @Test
    void aRetryAfterACrashBetweenCommitAndResponseGetsTheCommittedOrder() throws SQLException {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        String database = infrastructure.createDatabase("it_order_crash");
        int port = TestInfrastructure.freePort();
        Map<String, Object> properties = new LinkedHashMap<>(
                infrastructure.springProperties(database, infrastructure.createVhost("it-order-crash")));
        properties.put("server.port", port);
        Map<String, Object> crashing = new LinkedHashMap<>(properties);
        crashing.put("faults.crash-at", OrderService.AFTER_COMMIT_BEFORE_RESPONSE.name());
        String body = "{\"user_id\": 5, \"sku_ids\": [1, 2], \"idempotency_key\": \"" + UUID.randomUUID() + "\"}";
        WebClient client = WebClient.builder().baseUrl("http://localhost:" + port)
                .defaultHeaders(headers -> headers.setBearerAuth(TestTokens.customer(5))).build();

        try (JavaProcess crashes = JavaProcess.startJar(JAR, crashing, LOGS.resolve("order-crash-1.log"))) {
            crashes.awaitReady(port, Duration.ofSeconds(90));
            assertThat(crashes.log()).contains("FAULT INJECTION IS ON");

            assertThatThrownBy(() -> post(client, body)).as("the client gets no answer");
            assertThat(crashes.awaitExit(Duration.ofSeconds(30))).isEqualTo(CrashPoints.EXIT_CODE);
        }
        assertThat(count(infrastructure, database, "select count(*) from orders")).as("committed before the crash")
                .isEqualTo(1);

        try (JavaProcess restarted = JavaProcess.startJar(JAR, properties, LOGS.resolve("order-crash-2.log"))) {
            restarted.awaitReady(port, Duration.ofSeconds(90));

            ResponseEntity<JsonNode> retry = post(client, body);

            assertThat(retry.getStatusCode().value()).isEqualTo(200);
            assertThat(retry.getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
            assertThat(retry.getBody().get("order_id").asLong()).isEqualTo(
                    count(infrastructure, database, "select max(id) from orders"));
            assertThat(count(infrastructure, database, "select count(*) from orders")).isEqualTo(1);
            assertThat(count(infrastructure, database, "select count(*) from outbox_events")).isEqualTo(1);
        }
    }

    private static ResponseEntity<JsonNode> post(WebClient client, String body) {
        return client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON).bodyValue(body).retrieve()
                .toEntity(JsonNode.class).block(Duration.ofSeconds(30));
    }

    private static long count(TestInfrastructure infrastructure, String database, String sql) throws SQLException {
        TestInfrastructure.Postgres pg = infrastructure.postgres();
        try (Connection connection = DriverManager.getConnection(pg.jdbcUrl(database), pg.user(), pg.password());
                ResultSet rows = connection.createStatement().executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
