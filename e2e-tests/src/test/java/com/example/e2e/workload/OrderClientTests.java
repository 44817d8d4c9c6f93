package com.example.e2e.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.example.testsupport.TestInfrastructure;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The client's retry rules against a scripted server: what is retried (no answer, 5xx), what is final
 * (4xx), that every retry sends the same intent, and how each history ends.
 */
class OrderClientTests {

    private static final RetryPolicy FAST = new RetryPolicy(Duration.ofMillis(300), Duration.ofMillis(1),
            Duration.ofMillis(5), 5, Duration.ofSeconds(10));

    private final Deque<Reply> script = new ArrayDeque<>();
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private HttpServer server;

    /** What the server does with the next request. */
    private record Reply(int status, boolean replayed, boolean hang) {
    }

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        server.createContext("/orders", this::answer);
        // One thread per request: a hanging answer must not hold up the retry behind it.
        server.setExecutor(handlers);
        server.start();
    }

    @AfterEach
    void stopServer() {
        release.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void aTimeoutIsRetriedWithTheSameKeyAndAReplayAcksTheIntent() {
        script.add(new Reply(0, false, true));
        script.add(new Reply(200, true, false));

        IntentHistory history = client(server()).place(intent());

        assertThat(history.outcome()).isEqualTo(Outcome.ACKED);
        assertThat(history.attempts()).extracting(Attempt::failure).containsExactly(Attempt.Failure.TIMEOUT, null);
        assertThat(history.orderId()).isEqualTo(7);
        assertThat(history.answeredAsReplayAfterRetry()).isTrue();
        assertThat(bodies).hasSize(2).allMatch(body -> body.equals(bodies.get(0)));
    }

    @Test
    void unavailableIsRetriedUntilTheOrderIsCreated() {
        script.add(new Reply(503, false, false));
        script.add(new Reply(503, false, false));
        script.add(new Reply(201, false, false));

        IntentHistory history = client(server()).place(intent());

        assertThat(history.outcome()).isEqualTo(Outcome.ACKED);
        assertThat(history.attempts()).extracting(Attempt::status).containsExactly(503, 503, 201);
        assertThat(history.answeredAsReplayAfterRetry()).isFalse();
    }

    @Test
    void aClientErrorIsFinal() {
        script.add(new Reply(400, false, false));

        IntentHistory history = client(server()).place(intent());

        assertThat(history.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(history.attempts()).hasSize(1);
    }

    @Test
    void whenRetriesRunOutTheOutcomeIsUnknown() {
        for (int i = 0; i < 10; i++) {
            script.add(new Reply(503, false, false));
        }

        IntentHistory history = client(server()).place(intent());

        assertThat(history.outcome()).isEqualTo(Outcome.UNKNOWN);
        assertThat(history.attempts()).hasSize(FAST.maxAttempts());
    }

    @Test
    void aRetryGoesToTheNextInstanceWhenOneRefusesConnections() {
        script.add(new Reply(201, false, false));
        URI dead = URI.create("http://localhost:" + TestInfrastructure.freePort());

        // The first attempt of intent 0 goes to the first instance, the retry to the next.
        Intent first = new Intent(0, 100_001, List.of(1001L), null, UUID.randomUUID(), Plan.CONFIRM, false);

        IntentHistory history = new OrderClient(() -> List.of(dead, server()), FAST).place(first);

        assertThat(history.outcome()).isEqualTo(Outcome.ACKED);
        assertThat(history.attempts()).extracting(Attempt::failure).containsExactly(Attempt.Failure.CONNECTION, null);
    }

    @Test
    void aDoubleSubmitSendsTheSameRequestTwiceAtOnce() {
        script.add(new Reply(201, false, false));
        script.add(new Reply(200, true, false));
        Intent twice = new Intent(2, 100_002, List.of(1001L), null, UUID.randomUUID(), Plan.CONFIRM, true);

        IntentHistory history = client(server()).place(twice);

        assertThat(history.outcome()).isEqualTo(Outcome.ACKED);
        assertThat(history.attempts()).extracting(Attempt::status).containsExactlyInAnyOrder(201, 200);
        assertThat(history.replays()).isEqualTo(1);
        assertThat(history.retried()).isFalse();
    }

    private void answer(HttpExchange exchange) throws IOException {
        bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        Reply reply;
        synchronized (script) {
            reply = script.isEmpty() ? new Reply(500, false, false) : script.poll();
        }
        if (reply.hang()) {
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] body = (reply.status() / 100 == 2 ? "{\"order_id\": 7, \"status\": \"CREATED\"}" : "{}")
                .getBytes(StandardCharsets.UTF_8);
        if (reply.replayed()) {
            exchange.getResponseHeaders().add("Idempotent-Replayed", "true");
        }
        exchange.sendResponseHeaders(Math.max(reply.status(), 200), body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private URI server() {
        return URI.create("http://localhost:" + server.getAddress().getPort());
    }

    private static OrderClient client(URI target) {
        return new OrderClient(() -> List.of(target), FAST);
    }

    private static Intent intent() {
        return new Intent(1, 100_001, List.of(1001L, 1001L), "E2E-S1-1", UUID.randomUUID(), Plan.CONFIRM, false);
    }
}
