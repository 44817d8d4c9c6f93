package com.example.inventory.web;

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
import com.example.events.OrderCreated;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.OpenApiValidation;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
class InventoryApiIntegrationTests extends ConsumerTestSupport {

    private static final String PROBLEM = "https://example.com/problems/";

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
                .expectBody().json("{\"sku_id\": 41, \"available\": 1000000000, \"reserved\": 0}", true);
        put(42, "{\"available\": 100}").expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().json("{\"sku_id\": 42, \"available\": 100, \"reserved\": 0}", true);
        put(42, "{\"available\": 7}").expectStatus().isOk()
                .expectBody().json("{\"sku_id\": 42, \"available\": 7, \"reserved\": 0}", true);

        client.get().uri("/stock/42").exchange().expectStatus().isOk()
                .expectBody().json("{\"sku_id\": 42, \"available\": 7, \"reserved\": 0}", true);
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
                .expectBody().json("{\"sku_id\": 44, \"available\": 1, \"reserved\": 2}", true);
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
