package com.example.payment;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.example.events.EventJson;
import com.example.testsupport.JavaProcess;
import com.example.testsupport.TestInfrastructure;
import com.example.testsupport.TestTokens;

import tools.jackson.databind.JsonNode;

/**
 * The real payment simulator (the payment-simulator module's jar) as the provider of the tests: started once per
 * test JVM, on a free port, with a fresh ledger database of its own, and stopped when the JVM exits. Its faults are
 * global, so a test that sets them resets them ({@link #noFaults()}) before the next one runs.
 */
public final class ProviderSimulator {

    /** The secret both sides are configured with, as ./stack and compose do. */
    public static final String API_KEY = "test-" + UUID.randomUUID();

    private static final Path JAR = Path.of("..", "payment-simulator", "target", "payment-simulator.jar");
    private static final Duration START = Duration.ofSeconds(120);
    private static ProviderSimulator instance;

    private final JavaProcess process;
    private final String url;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private ProviderSimulator(JavaProcess process, int port) {
        this.process = process;
        this.url = "http://localhost:" + port;
    }

    /** The simulator, started on first use. */
    public static synchronized ProviderSimulator get() {
        if (instance == null) {
            instance = start();
            Runtime.getRuntime().addShutdownHook(new Thread(instance.process::close, "payment-simulator-stop"));
        }
        return instance;
    }

    private static ProviderSimulator start() {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR.toAbsolutePath().normalize() + " does not exist: build it first with "
                    + "./mvnw -B -o -q package -pl payment-simulator -DskipTests");
        }
        TestInfrastructure infrastructure = TestInfrastructure.get();
        String database = infrastructure.createDatabase("it_payment_simulator");
        int port = TestInfrastructure.freePort();
        Map<String, Object> properties = new LinkedHashMap<>(
                TestInfrastructure.databaseProperties(infrastructure.postgres(), database));
        properties.put("server.port", port);
        properties.put("simulator.api-key", API_KEY);
        properties.put(TestTokens.PROPERTY, TestTokens.publicKeyLocation());
        JavaProcess process = JavaProcess.startJar(PrivateJars.copyOf(JAR), properties, Path.of("target", "it-logs",
                "payment-simulator.log"));
        try {
            process.awaitReady(port, START);
        } catch (RuntimeException | AssertionError e) {
            process.close();
            throw e;
        }
        return new ProviderSimulator(process, port);
    }

    /** The base URL to configure as {@code payment.provider.url}. */
    public String url() {
        return url;
    }

    /** {@code PUT /faults}: what strikes later requests (see the contract's payment-simulator section). */
    public void faults(int latencyMs, int errorBeforePercent, int timeoutAfterChargePercent, int declinePercent) {
        String body = "{\"latency_ms\": %d, \"error_before_percent\": %d, \"timeout_after_charge_percent\": %d, "
                .formatted(latencyMs, errorBeforePercent, timeoutAfterChargePercent)
                + "\"decline_percent\": " + declinePercent + "}";
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url + "/faults"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
        if (response.statusCode() != 200) {
            throw new IllegalStateException("PUT /faults answered " + response.statusCode() + ": " + response.body());
        }
    }

    public void noFaults() {
        faults(0, 0, 0, 0);
    }

    /** The charges the simulator ever made under this idempotency key (at most one, if keys work). */
    public List<JsonNode> charges(String idempotencyKey) {
        return select(ledger().path("charges"), "idempotency_key", idempotencyKey);
    }

    /** The charges the simulator ever made with this reference, under any key. */
    public List<JsonNode> chargesWithReference(String reference) {
        return select(ledger().path("charges"), "reference", reference);
    }

    /** The refunds the simulator ever made of this charge, under any key. */
    public List<JsonNode> refunds(String chargeId) {
        return select(ledger().path("refunds"), "charge_id", chargeId);
    }

    private JsonNode ledger() {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url + "/ledger")).GET());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET /ledger answered " + response.statusCode() + ": " + response.body());
        }
        return EventJson.mapper().readTree(response.body());
    }

    private static List<JsonNode> select(JsonNode entries, String field, String value) {
        List<JsonNode> selected = new ArrayList<>();
        for (JsonNode entry : entries) {
            if (value.equals(entry.path(field).asString())) {
                selected.add(entry);
            }
        }
        return selected;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("the payment simulator at " + url + " does not answer; log: " + process, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
