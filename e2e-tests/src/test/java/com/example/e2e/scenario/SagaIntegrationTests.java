package com.example.e2e.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.example.e2e.topology.Service;
import com.example.testsupport.TestTokens;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The order's saga across the real services, one order at a time, without faults: what each
 * outcome leaves in inventory and coupons. (The fault scenarios check the same consistency in bulk.)
 */
class SagaIntegrationTests {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private E2eSystem system;
    private long sku;
    private long user;
    private String coupon;

    @BeforeEach
    void setUp() {
        system = E2eSystem.get();
        int slot = system.nextSlot();
        sku = 8_000_000L + slot * 10L;
        user = 8_000_000L + slot * 10L;
        coupon = "SAGA-" + slot + "-" + UUID.randomUUID().toString().substring(0, 8);
        put(Service.COUPON, "/coupons/" + coupon, "{\"discount_percent\": 10}");
    }

    @Test
    void theHappyPathConfirmsAndLeavesStockReservedAndTheCouponRedeemed() {
        put(Service.INVENTORY, "/stock/" + sku, "{\"available\": 10}");

        JsonNode order = awaitFinal(place(user, List.of(sku, sku), coupon));

        assertThat(order.get("status").asString()).isEqualTo("CONFIRMED");
        assertThat(steps(order)).isEqualTo("OK/OK/OK");
        JsonNode stock = get(Service.INVENTORY, "/stock/" + sku);
        assertThat(stock.get("available").asInt()).isEqualTo(8);
        assertThat(stock.get("reserved").asInt()).isEqualTo(2);
        JsonNode redeemed = get(Service.COUPON, "/coupons/" + coupon);
        assertThat(redeemed.get("status").asString()).isEqualTo("REDEEMED");
        assertThat(redeemed.get("redeemed_by_order").asLong()).isEqualTo(order.get("order_id").asLong());
    }

    @Test
    void outOfStockRejectsAndGivesTheCouponBackWithoutHoldingStock() {
        put(Service.INVENTORY, "/stock/" + sku, "{\"available\": 1}");

        JsonNode order = awaitFinal(place(user, List.of(sku, sku, sku), coupon));

        assertThat(order.get("status").asString()).isEqualTo("REJECTED");
        assertThat(order.get("rejection_reason").asString()).startsWith("inventory:");
        assertThat(order.get("steps").get("inventory").asString()).isEqualTo("REJECTED");
        assertThat(order.get("steps").get("coupon").asString()).isEqualTo("COMPENSATED");
        JsonNode stock = get(Service.INVENTORY, "/stock/" + sku);
        assertThat(stock.get("available").asInt()).isEqualTo(1);
        assertThat(stock.get("reserved").asInt()).isZero();
        assertThat(get(Service.COUPON, "/coupons/" + coupon).get("status").asString()).isEqualTo("ACTIVE");
    }

    @Test
    void aRiskRejectionCompensatesInventoryAndCouponExactlyOnce() {
        put(Service.INVENTORY, "/stock/" + sku, "{\"available\": 5}");
        long blocked = system.rules().blockedUsers().get(0);

        JsonNode order = awaitFinal(place(blocked, List.of(sku, sku), coupon));

        assertThat(order.get("status").asString()).isEqualTo("REJECTED");
        assertThat(order.get("rejection_reason").asString()).startsWith("risk:");
        assertThat(steps(order)).isEqualTo("COMPENSATED/COMPENSATED/REJECTED");
        JsonNode stock = get(Service.INVENTORY, "/stock/" + sku);
        assertThat(stock.get("available").asInt()).as("released once, not twice").isEqualTo(5);
        assertThat(stock.get("reserved").asInt()).isZero();
        assertThat(get(Service.INVENTORY, "/reservations/" + order.get("order_id").asLong()).get("status").asString())
                .isEqualTo("RELEASED");
        assertThat(get(Service.COUPON, "/coupons/" + coupon).get("status").asString()).isEqualTo("ACTIVE");
    }

    private long place(long userId, List<Long> skus, String couponCode) {
        String body = "{\"user_id\": " + userId + ", \"sku_ids\": " + skus + ", \"idempotency_key\": \""
                + UUID.randomUUID() + "\", \"coupon_code\": \"" + couponCode + "\"}";
        HttpResponse<String> response = send(Service.ORDER, "/orders", HttpRequest.newBuilder()
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return JSON.readTree(response.body()).get("order_id").asLong();
    }

    /** Waits until the order is final and no step is still moving (PENDING, or OK on a rejected order). */
    private JsonNode awaitFinal(long orderId) {
        return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> get(Service.ORDER, "/orders/" + orderId), order -> {
                    String status = order.get("status").asString();
                    String steps = steps(order);
                    return !status.equals("CREATED") && !steps.contains("PENDING")
                            && !(status.equals("REJECTED") && steps.matches("(OK/.*|.*/OK/.*)"));
                });
    }

    private static String steps(JsonNode order) {
        JsonNode steps = order.get("steps");
        return steps.get("inventory").asString() + "/" + steps.get("coupon").asString() + "/"
                + steps.get("risk").asString();
    }

    private void put(Service service, String path, String body) {
        HttpResponse<String> response = send(service, path, HttpRequest.newBuilder()
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    private JsonNode get(Service service, String path) {
        HttpResponse<String> response = send(service, path, HttpRequest.newBuilder().GET());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private HttpResponse<String> send(Service service, String path, HttpRequest.Builder request) {
        URI base = system.firstRunning(service);
        try {
            return HTTP.send(request.uri(base.resolve(path)).timeout(Duration.ofSeconds(10))
                    .header("Authorization", "Bearer " + TestTokens.admin()).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(service + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
