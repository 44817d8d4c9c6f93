package com.example.inventory.web;

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

import com.example.events.InventoryEvent;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.OpenApiValidation;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
class InventoryApiIntegrationTests extends ConsumerTestSupport {

    private static final String PROBLEM = "https://example.com/problems/";
    private static final String ORDER_QUEUE = "order.events.inventory-service";

    @LocalServerPort
    int port;

    WebTestClient client;

    @Override
    protected String replyExchange() {
        return InventoryEvent.EXCHANGE;
    }

    @BeforeEach
    void setUp() {
        client = OpenApiValidation.client(port);
    }

    @Test
    void putSetsTheAvailableUnitsAndGetReadsThemBack() {
        put(41, "{\"available\": 1000000000}").expectStatus().isOk()
                .expectBody().json("{\"sku_id\": 41, \"available\": 1000000000, \"reserved\": 0, \"price_cents\": 0}",
                        true);
        put(42, "{\"available\": 100, \"price_cents\": 1999}").expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().json("{\"sku_id\": 42, \"available\": 100, \"reserved\": 0, \"price_cents\": 1999}", true);
        // Without a price the sku keeps its own.
        put(42, "{\"available\": 7}").expectStatus().isOk()
                .expectBody().json("{\"sku_id\": 42, \"available\": 7, \"reserved\": 0, \"price_cents\": 1999}", true);

        client.get().uri("/stock/42").exchange().expectStatus().isOk()
                .expectBody().json("{\"sku_id\": 42, \"available\": 7, \"reserved\": 0, \"price_cents\": 1999}", true);
    }

    @Test
    void refusesAPriceOutsideItsBounds() {
        put(48, "{\"available\": 1, \"price_cents\": -1}").expectStatus().isBadRequest()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("price_cents");
        put(48, "{\"available\": 1, \"price_cents\": 1000000001}").expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("price_cents");
        put(48, "{\"available\": 1, \"price_cents\": 1000000000}").expectStatus().isOk();
    }

    @Test
    void anUnknownSkuIsA404Problem() {
        client.get().uri("/stock/4040").exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo(PROBLEM + "not-found")
                .jsonPath("$.status").isEqualTo(404)
                .jsonPath("$.detail").isEqualTo("sku 4040 has no stock record")
                .jsonPath("$.retryable").isEqualTo(false);
    }

    @Test
    void refusesANegativeOrMissingQuantityAndANonPositiveSku() {
        put(43, "{\"available\": -1}").expectStatus().isBadRequest()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo(PROBLEM + "validation-failed")
                .jsonPath("$.errors[0].field").isEqualTo("available");
        put(43, "{\"available\": 1000000001}").expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("available");
        put(43, "{}").expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("available");
        put(0, "{\"available\": 1}").expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("sku_id");
        client.get().uri("/stock/43").exchange().expectStatus().isNotFound();
    }

    @Test
    void aReservationIsA404UntilTheOrderArrivesThenShowsItsStatus() {
        put(44, "{\"available\": 3}").expectStatus().isOk();
        client.get().uri("/reservations/9001").exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.type").isEqualTo(PROBLEM + "not-found");

        broker.publish(new OrderCreated(UUID.randomUUID(), 9001L, 7L, List.of(44L, 44L), null, Instant.now()));
        awaitReplies(9001, 1);

        client.get().uri("/reservations/9001").exchange().expectStatus().isOk()
                .expectBody().json("{\"order_id\": 9001, \"status\": \"RESERVED\", \"sku_ids\": [44, 44], \"reason\": null}",
                        true);
        client.get().uri("/stock/44").exchange().expectStatus().isOk()
                .expectBody().json("{\"sku_id\": 44, \"available\": 1, \"reserved\": 2, \"price_cents\": 0}", true);
    }

    /**
     * The API bounds what an operator sets, not what a release gives back: a cancel after the stock was set to
     * the bound puts the order's units back on top of it. Were the release refused (an upper check, an overflow),
     * it would fail on every attempt and go to the dead-letter queue, and the units would be lost.
     */
    @Test
    void aCancelAfterTheStockWasSetToTheBoundReleasesTheUnitsAndNothingIsDeadLettered() {
        double poisonBefore = counter("events.poison", null);
        put(45, "{\"available\": 3}").expectStatus().isOk();
        broker.publish(new OrderCreated(UUID.randomUUID(), 9002L, 7L, List.of(45L, 45L), null, Instant.now()));
        assertThat(awaitReplies(9002, 1)).containsExactly("InventoryReserved");
        put(45, "{\"available\": 1000000000}").expectStatus().isOk()
                .expectBody().json("{\"sku_id\": 45, \"available\": 1000000000, \"reserved\": 2, \"price_cents\": 0}", true);

        broker.publish(new OrderCancelled(UUID.randomUUID(), 9002L, "risk: user is blocked", Instant.now()));

        assertThat(awaitReplies(9002, 2)).containsExactly("InventoryReserved", "InventoryReleased");
        client.get().uri("/stock/45").exchange().expectStatus().isOk()
                .expectBody().json("{\"sku_id\": 45, \"available\": 1000000002, \"reserved\": 0, \"price_cents\": 0}", true);
        client.get().uri("/reservations/9002").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("RELEASED");
        put(45, "{\"available\": 1000000001}").expectStatus().isBadRequest();
        assertThat(counter("events.poison", null)).isEqualTo(poisonBefore);
        awaitQueueDrained(ORDER_QUEUE);
        assertThat(broker.ready(ORDER_QUEUE + ".dlq")).isZero();
    }

    /**
     * Setting the bound while units are reserved, again and again, lets releases add up past 2^31 - 1: the state
     * such a history leaves is seeded directly (millions of orders would take too long), and the next release
     * still goes through.
     */
    @Test
    void releasesAddUpPastThe32BitLimitWithoutFailing() {
        double poisonBefore = counter("events.poison", null);
        put(46, "{\"available\": 3}").expectStatus().isOk();
        broker.publish(new OrderCreated(UUID.randomUUID(), 9003L, 7L, List.of(46L, 46L), null, Instant.now()));
        assertThat(awaitReplies(9003, 1)).containsExactly("InventoryReserved");
        database.execute("update stock set available = 2147483647 where sku_id = 46");

        broker.publish(new OrderCancelled(UUID.randomUUID(), 9003L, "risk: user is blocked", Instant.now()));

        assertThat(awaitReplies(9003, 2)).containsExactly("InventoryReserved", "InventoryReleased");
        client.get().uri("/stock/46").exchange().expectStatus().isOk()
                .expectBody().json("{\"sku_id\": 46, \"available\": 2147483649, \"reserved\": 0, \"price_cents\": 0}", true);
        assertThat(counter("events.poison", null)).isEqualTo(poisonBefore);
        awaitQueueDrained(ORDER_QUEUE);
        assertThat(broker.ready(ORDER_QUEUE + ".dlq")).isZero();
    }

    private WebTestClient.ResponseSpec put(long skuId, String body) {
        return client.put().uri("/stock/" + skuId).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    /** The operator endpoints the messaging starter gives every service, as the description says. */
    @Test
    void operatorsSeeTheDeadLetterQueueOfOrderEventsAndTheParkedOutboxEvents() {
        client.get().uri("/admin/dead-letters").exchange()
                .expectStatus().isOk()
                .expectBody().json("[{\"queue\": \"order.events.inventory-service.dlq\", \"messages\": 0}]", true);
        client.post().uri("/admin/dead-letters/{queue}/redrive", "order.events.inventory-service.dlq").exchange()
                .expectStatus().isOk()
                .expectBody().json("{\"moved\": 0}", true);
        client.post().uri("/admin/outbox/parked/requeue").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.requeued").isNumber();
        client.post().uri("/admin/outbox/parked/{id}/requeue", UUID.randomUUID()).exchange()
                .expectStatus().isNotFound();
    }

    /** The copy in docs/openapi/, from which clients are generated, is the description the service serves. */
    @Test
    void theDescriptionPublishedInTheRepositoryIsTheOneServed() throws java.io.IOException {
        OpenApiValidation.assertPublished(port, java.nio.file.Path.of("../docs/openapi/inventory-service.json"));
    }
}
