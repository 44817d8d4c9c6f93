package com.example.order.web;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.OpenApiValidation;
import com.example.testsupport.TestInfrastructure;
import com.example.testsupport.ThrowawayPostgres;

/** The database goes away under a running service: clients get 503s, then the service recovers by itself. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure(database = false)
class OrderDatabaseOutageIntegrationTests {

    static final ThrowawayPostgres postgres = ThrowawayPostgres.start();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestInfrastructure.databaseProperties(postgres.server(), "orders").forEach((key, value) -> registry.add(key,
                () -> value));
    }

    @AfterAll
    static void stopDatabase() {
        postgres.close();
    }

    @Test
    void answers503WhileTheDatabaseIsDownAndRecoversWithoutARestart() {
        WebTestClient client = OpenApiValidation.client(port);
        post(client, UUID.randomUUID()).expectStatus().isCreated();

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
        client.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();

        postgres.startServer();
        // The request refused during the outage did not happen: retried with the same key, it creates the order.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                post(client, duringOutage).expectStatus().isCreated());
        post(client, duringOutage).expectStatus().isOk().expectHeader().valueEquals("Idempotent-Replayed", "true");
    }

    private static WebTestClient.ResponseSpec post(WebTestClient client, UUID key) {
        return client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(OrderApiIntegrationTests.order(77, List.of(1, 2), key, null)).exchange();
    }
}
