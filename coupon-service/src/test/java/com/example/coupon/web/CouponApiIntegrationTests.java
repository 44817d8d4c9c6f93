package com.example.coupon.web;

import static org.assertj.core.api.Assertions.assertThat;

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
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.OpenApiValidation;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
class CouponApiIntegrationTests extends ConsumerTestSupport {

    private static final String PROBLEM = "https://example.com/problems/";
    private static final String ORDER_QUEUE = "order.events.coupon-service";

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

    /**
     * A coupon redefined while an order holds it is still given back when the order is cancelled: the release
     * changes only the order's redemption row, which no definition constrains, so it cannot fail on every
     * attempt and dead-letter the cancel.
     */
    @Test
    void aCouponRedefinedWhileHeldIsActiveAgainAfterTheCancelAndNothingIsDeadLettered() {
        double poisonBefore = counter("events.poison", null);
        put("REDEFINED_1", "{\"discount_percent\": 10}").expectStatus().isOk();
        broker.publish(new OrderCreated(UUID.randomUUID(), 8002L, 7L, List.of(1L), "REDEFINED_1", Instant.now()));
        assertThat(awaitReplies(8002, 1)).containsExactly("CouponRedeemed");
        put("REDEFINED_1", "{\"discount_percent\": 100}").expectStatus().isOk()
                .expectBody().json("{\"code\": \"REDEFINED_1\", \"status\": \"REDEEMED\", \"redeemed_by_order\": 8002}",
                        true);

        broker.publish(new OrderCancelled(UUID.randomUUID(), 8002L, "risk: user is blocked", Instant.now()));

        assertThat(awaitReplies(8002, 2)).containsExactly("CouponRedeemed", "CouponReleased");
        client.get().uri("/coupons/REDEFINED_1").exchange().expectStatus().isOk()
                .expectBody().json("{\"code\": \"REDEFINED_1\", \"status\": \"ACTIVE\", \"redeemed_by_order\": null}",
                        true);
        broker.publish(new OrderCreated(UUID.randomUUID(), 8003L, 7L, List.of(1L), "REDEFINED_1", Instant.now()));
        assertThat(awaitReplies(8003, 1)).containsExactly("CouponRedeemed");
        assertThat(counter("events.poison", null)).isEqualTo(poisonBefore);
        awaitQueueDrained(ORDER_QUEUE);
        assertThat(broker.ready(ORDER_QUEUE + ".dlq")).isZero();
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
