package com.example.messaging.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.example.testsupport.OpenApiValidation;
import com.example.testsupport.TestTokens;
import com.example.testsupport.StallingProxy;
import com.example.testsupport.TestInfrastructure;

/**
 * The broker goes away under a running service (the TCP proxy between them is cut; the machine's broker is never
 * touched): the dead-letter endpoints answer 503 problems that say a retry is safe, the messaging health group
 * reports it, and readiness does not, since the service still takes requests.
 */
class DeadLettersBrokerOutageIntegrationTests {

    static StallingProxy proxy;
    static ConfigurableApplicationContext service;
    static WebTestClient admin;
    static WebTestClient actuator;

    @BeforeAll
    static void startServiceBehindAProxy() {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        TestInfrastructure.Rabbit rabbit = infrastructure.rabbit();
        proxy = new StallingProxy(rabbit.host(), rabbit.port());
        Map<String, Object> properties = new LinkedHashMap<>(infrastructure.springProperties(
                infrastructure.createDatabase("it_dead_letter_outage"), infrastructure.createVhost("it-dead-letter-outage")));
        properties.put("spring.rabbitmq.host", "127.0.0.1");
        properties.put("spring.rabbitmq.port", proxy.port());
        properties.put("spring.rabbitmq.connection-timeout", "2s");
        properties.put("spring.application.name", "dead-letter-outage");
        properties.put("server.port", 0);
        properties.put("messaging.dead-letters.refresh-interval", "200ms");
        service = new SpringApplicationBuilder(DeadLetterTestApplication.class)
                .run(properties.entrySet().stream().map(p -> "--" + p.getKey() + "=" + p.getValue()).toArray(String[]::new));
        int port = service.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        admin = OpenApiValidation.client(port);
        actuator = WebTestClient.bindToServer().baseUrl("http://localhost:" + port)
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + TestTokens.admin()).build();
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aBrokerThatCannotBeReachedIsA503ProblemAndNoReasonToLeaveReadiness() {
        String dlq = "order.events.dead-letter-outage.dlq";
        admin.get().uri("/admin/dead-letters").exchange()
                .expectStatus().isOk()
                .expectBody().json("[{\"queue\": \"" + dlq + "\", \"messages\": 0}]", true);
        assertThat(proxy.connectionsOpened()).as("the service reaches the broker through the proxy").isPositive();

        proxy.close();

        await().atMost(Duration.ofSeconds(30)).until(() -> admin.get().uri("/admin/dead-letters").exchange()
                .returnResult(String.class).getStatus().value() == 503);
        admin.get().uri("/admin/dead-letters").exchange()
                .expectStatus().isEqualTo(503)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectHeader().valueEquals(HttpHeaders.RETRY_AFTER, "1")
                .expectBody()
                .jsonPath("$.type").isEqualTo("https://example.com/problems/service-unavailable")
                .jsonPath("$.retryable").isEqualTo(true)
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("RabbitMQ"));
        admin.post().uri("/admin/dead-letters/{queue}/redrive", dlq).exchange()
                .expectStatus().isEqualTo(503)
                .expectBody()
                .jsonPath("$.type").isEqualTo("https://example.com/problems/service-unavailable")
                .jsonPath("$.retryable").isEqualTo(true)
                .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains("still in " + dlq));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> actuator.get().uri("/actuator/health/messaging")
                .exchange()
                .expectStatus().isEqualTo(503)
                .expectBody()
                .jsonPath("$.status").isEqualTo("DOWN")
                .jsonPath("$.components.rabbit.status").isEqualTo("DOWN"));
        actuator.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
        actuator.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
    }
}
