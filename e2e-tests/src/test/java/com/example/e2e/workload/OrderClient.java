package com.example.e2e.workload;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import com.example.testsupport.TestTokens;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Places one intent the way a careful client does: POST /orders with the intent's idempotency key,
 * and on a timeout, a connection error or a 5xx the same request again (to the next order-service
 * instance, as a load balancer would), until it is answered or the {@link RetryPolicy} gives up.
 * Every request is recorded as an {@link Attempt}.
 */
public final class OrderClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http;
    private final Supplier<List<URI>> orderServices;
    private final RetryPolicy policy;
    /** Each user's token (as a customer's app holds one), made once: signing is not free. */
    private final Map<Long, String> tokens = new ConcurrentHashMap<>();

    /** @param orderServices the order-service instances to send to, asked again before every attempt */
    public OrderClient(Supplier<List<URI>> orderServices, RetryPolicy policy) {
        this.orderServices = orderServices;
        this.policy = policy;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1)).build();
    }

    public IntentHistory place(Intent intent) {
        List<Attempt> attempts = Collections.synchronizedList(new ArrayList<>());
        long deadline = System.nanoTime() + policy.deadline().toNanos();
        Attempt last = first(intent, attempts);
        int failures = 0;
        while (last.retryable() && attempts.size() < policy.maxAttempts() && System.nanoTime() < deadline) {
            failures++;
            LockSupport.parkNanos(policy.backoff(failures).toNanos());
            last = send(intent, attempts.size());
            attempts.add(last);
        }
        Outcome outcome = attempts.stream().anyMatch(Attempt::acked) ? Outcome.ACKED
                : last.retryable() ? Outcome.UNKNOWN : Outcome.FAILED;
        IntentHistory placed = new IntentHistory(intent, attempts, outcome);
        if (intent.cancelAfter() != null && outcome == Outcome.ACKED) {
            LockSupport.parkNanos(intent.cancelAfter().toNanos());
            return placed.cancelled(cancel(intent, placed.orderId()));
        }
        return placed;
    }

    /**
     * The user's cancellation of its order: {@code POST /orders/{id}/cancellation}, sent again on a timeout, a
     * connection error or a 5xx (it is idempotent: a repeat answers the order as it is), as the order was.
     */
    private Cancellation cancel(Intent intent, long orderId) {
        long deadline = System.nanoTime() + policy.deadline().toNanos();
        int requests = 0;
        int status = 0;
        while (requests < policy.maxAttempts() && System.nanoTime() < deadline) {
            if (requests > 0) {
                LockSupport.parkNanos(policy.backoff(requests).toNanos());
            }
            HttpRequest request = HttpRequest.newBuilder(target(intent, requests).resolve("/orders/" + orderId
                            + "/cancellation"))
                    .timeout(policy.requestTimeout())
                    .header("Authorization", bearer(intent))
                    .header("X-Request-Id", "e2e-" + intent.number() + "-cancel-" + requests)
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build();
            requests++;
            try {
                status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (IOException e) {
                status = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while cancelling intent " + intent.number(), e);
            }
            if (status != 0 && status < 500) {
                break;
            }
        }
        return new Cancellation(status, requests);
    }

    /** The first request, or two at once for a double submit; the one that decides what comes next. */
    private Attempt first(Intent intent, List<Attempt> attempts) {
        if (!intent.doubleSubmit()) {
            Attempt attempt = send(intent, 0);
            attempts.add(attempt);
            return attempt;
        }
        CompletableFuture<Attempt> twin = CompletableFuture.supplyAsync(() -> send(intent, 0));
        Attempt mine = send(intent, 0);
        Attempt other = twin.join();
        attempts.add(mine);
        attempts.add(other);
        return mine.retryable() ? other : mine;
    }

    private Attempt send(Intent intent, int attemptNumber) {
        URI target = target(intent, attemptNumber);
        HttpRequest request = HttpRequest.newBuilder(target.resolve("/orders"))
                .timeout(policy.requestTimeout())
                .header("Content-Type", "application/json")
                .header("Authorization", bearer(intent))
                .header("X-Request-Id", "e2e-" + intent.number() + "-" + UUID.randomUUID().toString().substring(0, 8))
                .POST(HttpRequest.BodyPublishers.ofString(intent.requestBody()))
                .build();
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            boolean replayed = response.headers().firstValue("Idempotent-Replayed").map("true"::equalsIgnoreCase)
                    .orElse(false);
            long orderId = response.statusCode() / 100 == 2 ? orderId(response.body()) : 0;
            return new Attempt(started, took, response.statusCode(), null, replayed, orderId, target.getAuthority());
        } catch (HttpTimeoutException e) {
            return new Attempt(started, Duration.ofNanos(System.nanoTime() - t0), 0, Attempt.Failure.TIMEOUT, false, 0,
                    target.getAuthority());
        } catch (IOException e) {
            return new Attempt(started, Duration.ofNanos(System.nanoTime() - t0), 0, Attempt.Failure.CONNECTION, false, 0,
                    target.getAuthority());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while placing intent " + intent.number(), e);
        }
    }

    /** The instance for an intent's attempt: the next one on each retry, as a load balancer would. */
    private URI target(Intent intent, int attempt) {
        List<URI> targets = orderServices.get();
        return targets.get(Math.floorMod(intent.number() + attempt, targets.size()));
    }

    private String bearer(Intent intent) {
        return "Bearer " + tokens.computeIfAbsent(intent.userId(), TestTokens::customer);
    }

    private static long orderId(String body) {
        JsonNode order = JSON.readTree(body);
        return order.path("order_id").asLong(0);
    }
}
