package com.example.e2e.workload;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;

import org.awaitility.Awaitility;
import com.example.testsupport.TestTokens;

/**
 * Puts a catalog's stock and coupons in place through the services' public operator endpoints
 * ({@code PUT /stock/{sku}}, {@code PUT /coupons/{code}}), retrying while a service is restarting.
 */
public final class Seeder {

    private static final Duration PATIENCE = Duration.ofMinutes(2);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1)).build();
    private final Supplier<URI> inventory;
    private final Supplier<URI> coupons;

    public Seeder(Supplier<URI> inventory, Supplier<URI> coupons) {
        this.inventory = inventory;
        this.coupons = coupons;
    }

    /** Sets each sku's units and its price. */
    public void stock(Map<Long, Integer> units, LongUnaryOperator priceCents) {
        units.forEach((sku, available) -> put(inventory, "/stock/" + sku,
                "{\"available\": " + available + ", \"price_cents\": " + priceCents.applyAsLong(sku) + "}"));
    }

    /** A price of 1.00 to 99.99, varied by sku so that an amount that adds the wrong units does not come out right. */
    public static long variedPriceCents(long sku) {
        return 100 + Math.floorMod(sku * 37, 9_900);
    }

    public void coupons(List<String> codes) {
        codes.forEach(code -> put(coupons, "/coupons/" + code, "{\"discount_percent\": 10}"));
    }

    private void put(Supplier<URI> service, String path, String body) {
        Awaitility.await("PUT " + path).atMost(PATIENCE).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    HttpRequest request = HttpRequest.newBuilder(service.get().resolve(path))
                            .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                            .header("Authorization", "Bearer " + TestTokens.admin())
                            .PUT(HttpRequest.BodyPublishers.ofString(body)).build();
                    int status = send(request);
                    if (status >= 400 && status < 500) {
                        throw new IllegalStateException("PUT " + path + " was refused with " + status);
                    }
                    return status == 200;
                });
    }

    private int send(HttpRequest request) throws InterruptedException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        }
    }
}
