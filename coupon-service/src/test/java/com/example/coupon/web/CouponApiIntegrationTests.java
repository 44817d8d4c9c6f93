package com.example.coupon.web;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.example.events.CouponEvent;
import com.example.events.OrderCreated;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.OpenApiValidation;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
class CouponApiIntegrationTests extends ConsumerTestSupport {

    private static final String PROBLEM = "https://example.com/problems/";

    @LocalServerPort
    int port;

    WebTestClient client;

    @Override
    protected String replyExchange() {
        return CouponEvent.EXCHANGE;
    }

    @BeforeEach
    void setUp() {
        client = OpenApiValidation.client(port);
    }

    @Test
    void putDefinesAnActiveCouponAndGetReadsItBack() {
        put("WELCOME10", "{\"discount_percent\": 10}").expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().json("{\"code\": \"WELCOME10\", \"status\": \"ACTIVE\", \"redeemed_by_order\": null}", true);

        client.get().uri("/coupons/WELCOME10").exchange().expectStatus().isOk()
                .expectBody().json("{\"code\": \"WELCOME10\", \"status\": \"ACTIVE\", \"redeemed_by_order\": null}", true);
    }

    @Test
    void aRedeemedCouponNamesItsOrder() {
        put("SPRING_25-x", "{\"discount_percent\": 25}").expectStatus().isOk();

        broker.publish(new OrderCreated(UUID.randomUUID(), 8001L, 7L, List.of(1L), "SPRING_25-x", Instant.now()));
        awaitReplies(8001, 1);

        client.get().uri("/coupons/SPRING_25-x").exchange().expectStatus().isOk()
                .expectBody().json("{\"code\": \"SPRING_25-x\", \"status\": \"REDEEMED\", \"redeemed_by_order\": 8001}",
                        true);
        put("SPRING_25-x", "{\"discount_percent\": 30}").expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("REDEEMED");
    }

    @Test
    void anUnknownCouponIsA404Problem() {
        client.get().uri("/coupons/NOPE").exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo(PROBLEM + "not-found")
                .jsonPath("$.detail").isEqualTo("coupon NOPE does not exist")
                .jsonPath("$.retryable").isEqualTo(false);
    }

    @Test
    void refusesAMalformedCodeAndAnOutOfRangeDiscount() {
        put("x".repeat(65), "{\"discount_percent\": 10}").expectStatus().isBadRequest()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo(PROBLEM + "validation-failed")
                .jsonPath("$.errors[0].field").isEqualTo("code");
        put("BAD.CODE", "{\"discount_percent\": 10}").expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("code");
        put("OK", "{\"discount_percent\": 0}").expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("discount_percent");
        put("OK", "{\"discount_percent\": 101}").expectStatus().isBadRequest();
        put("OK", "{}").expectStatus().isBadRequest();
        client.get().uri("/coupons/OK").exchange().expectStatus().isNotFound();
    }

    private WebTestClient.ResponseSpec put(String code, String body) {
        return client.put().uri("/coupons/" + code).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    /** The copy in docs/openapi/, from which clients are generated, is the description the service serves. */
    @Test
    void theDescriptionPublishedInTheRepositoryIsTheOneServed() throws java.io.IOException {
        OpenApiValidation.assertPublished(port, java.nio.file.Path.of("../docs/openapi/coupon-service.json"));
    }
}
