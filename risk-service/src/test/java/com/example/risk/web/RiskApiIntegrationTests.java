package com.example.risk.web;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.example.events.OrderCreated;
import com.example.events.RiskEvent;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.OpenApiValidation;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
@TestPropertySource(properties = "risk.blocked-user-ids=13")
class RiskApiIntegrationTests extends ConsumerTestSupport {

    private static final String PROBLEM = "https://example.com/problems/";

    @LocalServerPort
    int port;

    WebTestClient client;

    @Override
    protected String replyExchange() {
        return RiskEvent.EXCHANGE;
    }

    @BeforeEach
    void setUp() {
        client = OpenApiValidation.client(port);
    }

    @Test
    void anAssessmentIsA404UntilTheOrderArrivesThenShowsTheDecision() {
        client.get().uri("/assessments/7001").exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo(PROBLEM + "not-found")
                .jsonPath("$.detail").isEqualTo("order 7001 has not been assessed yet")
                .jsonPath("$.retryable").isEqualTo(false);

        broker.publish(new OrderCreated(UUID.randomUUID(), 7001L, 42L, List.of(1L), null, Instant.now()));
        awaitReplies(7001, 1);

        client.get().uri("/assessments/7001").exchange().expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().json("{\"order_id\": 7001, \"decision\": \"APPROVED\", \"reasons\": []}", true);
    }

    @Test
    void aRejectionListsItsReasons() {
        broker.publish(new OrderCreated(UUID.randomUUID(), 7002L, 13L, List.of(1L), null, Instant.now()));
        awaitReplies(7002, 1);

        client.get().uri("/assessments/7002").exchange().expectStatus().isOk()
                .expectBody().json("{\"order_id\": 7002, \"decision\": \"REJECTED\", \"reasons\": [\"user 13 is blocked\"]}",
                        true);
    }

    /** The copy in docs/openapi/, from which clients are generated, is the description the service serves. */
    @Test
    void theDescriptionPublishedInTheRepositoryIsTheOneServed() throws java.io.IOException {
        OpenApiValidation.assertPublished(port, java.nio.file.Path.of("../docs/openapi/risk-service.json"));
    }
}
