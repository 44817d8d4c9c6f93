package com.example.messaging.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.example.events.OrderCreated;
import com.example.testsupport.BrokerClient;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.OpenApiValidation;
import com.example.testsupport.TestTokens;
import com.example.testsupport.TestEvents;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * A service's dead letters, end to end against the real broker and database: poison the inbox sent to the
 * dead-letter queue is listed, measured (gauge, Prometheus) and reported (the messaging health group, not
 * readiness), then moved back; before the fix it comes back once, after it the inbox applies it; an event that
 * was applied already is skipped as a duplicate. Every operator exchange is checked against the API description
 * the service serves. Each test leaves the dead-letter queue empty.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.application.name=dead-letter-test",
        "messaging.dead-letters.refresh-interval=200ms" })
@FreshInfrastructure
class DeadLettersIntegrationTests {

    static final String QUEUE = "order.events.dead-letter-test";
    static final String DLQ = QUEUE + ".dlq";
    static final Duration PATIENCE = Duration.ofSeconds(30);

    @Autowired
    DeadLetterTestApplication.OrdersHandler handler;

    @Autowired
    MeterRegistry meters;

    @Value("${test.rabbitmq.virtual-host}")
    String vhost;

    @LocalServerPort
    int port;

    BrokerClient broker;
    WebTestClient admin;
    WebTestClient actuator;

    @BeforeEach
    void connect() {
        broker = BrokerClient.forVhost(vhost);
        admin = OpenApiValidation.client(port);
        actuator = WebTestClient.bindToServer().baseUrl("http://localhost:" + port)
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + TestTokens.admin()).build();
        awaitDeadLetters(0);
    }

    @AfterEach
    void disconnect() {
        handler.refused.clear();
        broker.close();
    }

    @Test
    void poisonIsListedMeasuredAndReportedThenMovedBackOnceAndAppliedAfterTheFix() {
        double poisonBefore = counter("events.poison");
        handler.refused.addAll(List.of(101L, 102L, 103L));
        broker.publish(order(101));
        broker.publish(order(102));
        broker.publish(order(103));
        broker.publish(order(104));

        awaitDeadLetters(3);
        admin.get().uri("/admin/dead-letters").exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().json("[{\"queue\": \"" + DLQ + "\", \"messages\": 3}]", true);
        await().atMost(PATIENCE).until(() -> handler.applied.contains(104L));
        await().atMost(PATIENCE).until(() -> gauge() == 3.0);
        assertThat(actuator.get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody())
                .containsPattern("messaging_dead_letters\\{[^}]*queue=\"" + DLQ.replace(".", "\\.") + "\"[^}]*} 3\\.0");

        actuator.get().uri("/actuator/health/messaging").exchange()
                .expectStatus().isEqualTo(503)
                .expectBody()
                .jsonPath("$.status").isEqualTo("WARNING")
                .jsonPath("$.components.deadLetters.status").isEqualTo("WARNING")
                .jsonPath("$.components.deadLetters.details.messages").isEqualTo(3)
                .jsonPath("$.components.deadLetters.details.queues['" + DLQ + "']").isEqualTo(3)
                .jsonPath("$.components.rabbit.status").isEqualTo("UP");
        // The service takes requests as well as before: dead letters wait for an operator, not for a restart.
        actuator.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
        actuator.get().uri("/actuator/health").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP");

        // Not fixed yet: each comes back to the dead-letter queue, and is not moved round again by the same request.
        redrive().jsonPath("$.moved").isEqualTo(3);
        await().atMost(PATIENCE).until(() -> counter("events.poison") - poisonBefore == 6);
        awaitDeadLetters(3);
        assertThat(handler.applied).doesNotContain(101L, 102L, 103L);

        handler.refused.clear();
        redrive().jsonPath("$.moved").isEqualTo(3);

        await().atMost(PATIENCE).until(() -> handler.applied.containsAll(List.of(101L, 102L, 103L)));
        awaitDeadLetters(0);
        await().atMost(PATIENCE).until(() -> gauge() == 0.0);
        await().atMost(PATIENCE).until(() -> actuator.get().uri("/actuator/health/messaging").exchange()
                .returnResult(String.class).getStatus().value() == 200);
        assertThat(counter("events.poison") - poisonBefore).isEqualTo(6);
    }

    @Test
    void aMovedBackEventThatWasAppliedBeforeIsSkippedAsADuplicate() {
        OrderCreated order = order(201);
        broker.publish(order);
        await().atMost(PATIENCE).until(() -> handler.applied.contains(201L));
        double duplicatesBefore = counter("events.duplicates");
        // A copy dead-lettered after the event was applied (by a consumer that died before its ack, say).
        broker.publishToQueue(DLQ, TestEvents.message(order));
        awaitDeadLetters(1);

        redrive().jsonPath("$.moved").isEqualTo(1);

        await().atMost(PATIENCE).until(() -> counter("events.duplicates") - duplicatesBefore == 1);
        assertThat(handler.applied).containsOnlyOnce(201L);
        awaitDeadLetters(0);
    }

    @Test
    void onlyTheServicesOwnDeadLetterQueuesCanBeRedriven() {
        for (String queue : List.of("order.events.other-service.dlq", QUEUE, "anything")) {
            admin.post().uri("/admin/dead-letters/{queue}/redrive", queue).exchange()
                    .expectStatus().isNotFound()
                    .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectBody()
                    .jsonPath("$.type").isEqualTo("https://example.com/problems/not-found")
                    .jsonPath("$.retryable").isEqualTo(false)
                    .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains(DLQ));
        }
    }

    private WebTestClient.BodyContentSpec redrive() {
        return admin.post().uri("/admin/dead-letters/{queue}/redrive", DLQ).exchange()
                .expectStatus().isOk()
                .expectBody();
    }

    /** Until the operator endpoint (which asks the broker) lists the queue with that many messages. */
    private void awaitDeadLetters(int messages) {
        await().atMost(PATIENCE).untilAsserted(() -> admin.get().uri("/admin/dead-letters").exchange()
                .expectStatus().isOk()
                .expectBody().json("[{\"queue\": \"" + DLQ + "\", \"messages\": " + messages + "}]", true));
    }

    private double gauge() {
        return meters.get(DeadLetterMetrics.DEAD_LETTERS).tag("queue", DLQ).gauge().value();
    }

    private double counter(String name) {
        return meters.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }

    private static OrderCreated order(long orderId) {
        return new OrderCreated(UUID.randomUUID(), orderId, 42L, List.of(1001L), null, Instant.now());
    }
}
