package com.example.order.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.OpenApiValidation;
import com.example.testsupport.TestInfrastructure;
import com.example.testsupport.ThrowawayPostgres;

import tools.jackson.databind.JsonNode;

/**
 * The database goes away under a running service: clients get 503s, the deadline sweep fails and says so, then the
 * service recovers by itself.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "orders.deadline-sweep-interval=200ms")
@FreshInfrastructure(database = false)
@ExtendWith(OutputCaptureExtension.class)
class OrderDatabaseOutageIntegrationTests {

    static final ThrowawayPostgres postgres = ThrowawayPostgres.start();

    @LocalServerPort
    int port;

    @Autowired
    DatabaseClient db;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        postgres.createDatabase("orders");
        TestInfrastructure.databaseProperties(postgres.server(), "orders").forEach((key, value) -> registry.add(key,
                () -> value));
    }

    @AfterAll
    static void stopDatabase() {
        postgres.close();
    }

    @Test
    void answers503WhileTheDatabaseIsDownAndRecoversWithoutARestart(CapturedOutput output) {
        WebTestClient client = OpenApiValidation.client(port);
        long placedBefore = post(client, UUID.randomUUID()).expectStatus().isCreated().expectBody(JsonNode.class)
                .returnResult().getResponseBody().get("order_id").asLong();

        postgres.stopNow();
        UUID duringOutage = UUID.randomUUID();
        post(client, duringOutage)
                .expectStatus().isEqualTo(503)
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectHeader().valueEquals("Retry-After", "1")
                .expectBody()
                .jsonPath("$.type").isEqualTo("https://example.com/problems/service-unavailable")
                .jsonPath("$.retryable").isEqualTo(true);
        client.get().uri("/orders/1").exchange().expectStatus().isEqualTo(503);
        client.get().uri("/livez").exchange().expectStatus().isOk();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(output.getAll())
                .contains("Order deadline sweep failed"));

        postgres.startServer();
        // The request refused during the outage did not happen: retried with the same key, it creates the order.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                post(client, duringOutage).expectStatus().isCreated());
        post(client, duringOutage).expectStatus().isOk().expectHeader().valueEquals("Idempotent-Replayed", "true");

        // The sweep outlived the outage: an order past its deadline is rejected.
        db.sql("update orders set created_at = now() - interval '1 hour' where id = :id").bind("id", placedBefore)
                .then().block();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            client.get().uri("/orders/{id}", placedBefore).exchange().expectStatus().isOk().expectBody()
                    .jsonPath("$.status").isEqualTo("REJECTED");
            assertThat(output.getAll()).contains("Order deadline sweep recovered");
        });
    }

    private static WebTestClient.ResponseSpec post(WebTestClient client, UUID key) {
        return client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(OrderApiIntegrationTests.order(77, List.of(1, 2), key, null)).exchange();
    }
}
