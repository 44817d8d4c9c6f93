package com.example.e2e.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import com.example.e2e.workload.Seeder;
import com.example.testsupport.TestTokens;

import tools.jackson.databind.json.JsonMapper;

/**
 * The benchmark's orders: fresh intents of users of their own (one order per user, so no risk rule
 * rejects them for their rate), over skus stocked for far more than a run can order, sent to
 * {@code POST /orders} as a client would.
 */
final class BenchOrders {

    static final long FIRST_SKU = 9001;
    static final int SKUS = 20;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** A request body and the intent it names. */
    record Intent(long userId, UUID key, String body) {
    }

    /**
     * What {@code POST /orders} answered.
     *
     * @param status     the HTTP status
     * @param orderId    the order's id, when the answer carries one
     * @param replayed   whether it said {@code Idempotent-Replayed: true}
     * @param answeredAt when the client had the whole answer
     * @param nanos      from sending the request to having the whole answer
     */
    record Answer(Intent intent, int status, long orderId, boolean replayed, Instant answeredAt, long nanos) {
    }

    // Bench users start far above any id a person would type, and each order gets the next one.
    private final AtomicLong users = new AtomicLong(1_000_000_000L);
    /**
     * An operator's token for every order: one user per order would mean signing a token per request, which would
     * load the generator, not the system (validating a token costs the services the same for either).
     */
    private final String bearer = "Bearer " + TestTokens.admin();
    /**
     * Answers are read on the client's selector thread ({@code executor(Runnable::run)}) rather than handed to a pool
     * thread each: the load generator shares the system's two cores, and by hand that halved its CPU per request
     * (0.27–0.31 against 0.47–0.61 ms) and took a thread hop out of every latency it measures.
     */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).executor(Runnable::run).build();
    private final URI orders;

    BenchOrders(URI orderService) {
        this.orders = orderService.resolve("/orders");
    }

    /** The next user id, for orders the benchmark writes without the API (the database ceiling, the backlog). */
    long nextUser() {
        return users.incrementAndGet();
    }

    static void stock(Seeder seeder) {
        seeder.stock(LongStream.range(FIRST_SKU, FIRST_SKU + SKUS).boxed()
                .collect(Collectors.toMap(Function.identity(), sku -> 100_000_000)), Seeder::variedPriceCents);
    }

    Intent fresh() {
        long userId = nextUser();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<Long> skus = random.longs(1 + random.nextInt(3), FIRST_SKU, FIRST_SKU + SKUS).boxed().toList();
        UUID key = UUID.randomUUID();
        String body = JSON.writeValueAsString(Map.of("user_id", userId, "sku_ids", skus, "idempotency_key", key));
        return new Intent(userId, key, body);
    }

    /** Sends and waits for the answer (closed loop). */
    Answer place(Intent intent) throws IOException, InterruptedException {
        long sent = System.nanoTime();
        HttpResponse<String> response = http.send(request(intent), HttpResponse.BodyHandlers.ofString());
        return answer(intent, response, sent);
    }

    /** Sends without waiting (open loop); no answer at all (a timeout, a refused connection) is status 0. */
    CompletableFuture<Answer> placeAsync(Intent intent) {
        long sent = System.nanoTime();
        return http.sendAsync(request(intent), HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> answer(intent, response, sent))
                .exceptionally(noAnswer -> new Answer(intent, 0, 0, false, Instant.now(), System.nanoTime() - sent));
    }

    private HttpRequest request(Intent intent) {
        return HttpRequest.newBuilder(orders).timeout(TIMEOUT).header("Content-Type", "application/json")
                .header("Authorization", bearer)
                .POST(HttpRequest.BodyPublishers.ofString(intent.body())).build();
    }

    private static Answer answer(Intent intent, HttpResponse<String> response, long sent) {
        long nanos = System.nanoTime() - sent;
        Instant answeredAt = Instant.now();
        int status = response.statusCode();
        long orderId = status == 200 || status == 201 ? JSON.readTree(response.body()).path("order_id").asLong() : 0;
        boolean replayed = response.headers().firstValue("Idempotent-Replayed").map("true"::equalsIgnoreCase)
                .orElse(false);
        return new Answer(intent, status, orderId, replayed, answeredAt, nanos);
    }
}
