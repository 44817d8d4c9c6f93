package com.example.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.example.events.OrderCreated;
import com.example.service.faults.CrashPoints;

/**
 * Faults every inbox consumer must survive, with the service running as a real process (its jar in a
 * child JVM) that halts at a crash point, and with a database server of its own that goes away.
 * Each test first proves the fault happened (exit code 86, the message back in the queue, retries
 * counted), then that the effect happened exactly once and the queues drained.
 *
 * <p>A service test class extends this and names the service; {@code target/<service>.jar} exists
 * when failsafe runs.
 */
public abstract class InboxFaultContract {

    /** The inbox's crash points, as the public contract names them. */
    private static final String AFTER_COMMIT_BEFORE_ACK = "consumer.after-commit-before-ack";
    private static final String BEFORE_COMMIT = "consumer.before-commit";

    private static final Path LOGS = Path.of("target/it-logs");
    private static final Duration START = Duration.ofSeconds(120);
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final TestInfrastructure infrastructure = TestInfrastructure.get();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final int port = TestInfrastructure.freePort();
    private final int managementPort = TestInfrastructure.freePort();

    /** The service's name: its jar is {@code target/<service>.jar}, its queue {@code order.events.<service>}. */
    protected abstract String service();

    /** A new order the service applies with one visible effect; seeds what it needs into the service's database. */
    protected abstract OrderCreated newOrder(ServiceDatabase database);

    /** How many times the order's effect is in the database: 1 once applied. */
    protected abstract long effects(ServiceDatabase database, OrderCreated order);

    /** The event type the service answers {@link #newOrder} with. */
    protected abstract String expectedReply();

    /** The exchange the service's replies go to, e.g. {@code inventory.events}; the service declares it at start. */
    protected abstract String replyExchange();

    @Test
    void aCrashAfterCommitBeforeAckIsRedeliveredRecognisedAsADuplicateAndAcknowledged() {
        String databaseName = infrastructure.createDatabase("it_" + service() + "_after_commit");
        Map<String, Object> properties = infrastructure.springProperties(databaseName,
                infrastructure.createVhost("it-" + service() + "-after-commit"));
        ServiceDatabase database = ServiceDatabase.on(infrastructure.postgres(), databaseName);
        try (BrokerClient broker = broker(properties)) {
            OrderCreated order;
            try (JavaProcess crashing = start(broker, properties, AFTER_COMMIT_BEFORE_ACK,
                    "after-commit-1")) {
                order = newOrder(database);
                broker.publish(order);

                assertThat(crashing.awaitExit(PATIENCE)).isEqualTo(CrashPoints.EXIT_CODE);
                assertThat(crashing.log()).contains("CRASH POINT " + AFTER_COMMIT_BEFORE_ACK);
            }
            assertThat(effects(database, order)).as("committed before the crash").isEqualTo(1);
            assertThat(database.replies(order.orderId())).containsExactly(expectedReply());
            await().atMost(PATIENCE).untilAsserted(() ->
                    assertThat(broker.ready(queue())).as("never acknowledged, so back in the queue").isEqualTo(1));

            try (JavaProcess restarted = start(broker, properties, null, "after-commit-2")) {
                await().atMost(PATIENCE).untilAsserted(() ->
                        assertThat(metric("events_duplicates_total", order.eventType())).isEqualTo(1));
                awaitDrained(broker);
                assertThat(metric("events_processed_total", order.eventType(), "outcome=\"applied\"")).isZero();
            }
            assertThat(effects(database, order)).isEqualTo(1);
            assertThat(database.replies(order.orderId())).containsExactly(expectedReply());
        }
    }

    @Test
    void aCrashBeforeCommitLeavesNothingAndTheRedeliveryAppliesTheEffectOnce() {
        String databaseName = infrastructure.createDatabase("it_" + service() + "_before_commit");
        Map<String, Object> properties = infrastructure.springProperties(databaseName,
                infrastructure.createVhost("it-" + service() + "-before-commit"));
        ServiceDatabase database = ServiceDatabase.on(infrastructure.postgres(), databaseName);
        try (BrokerClient broker = broker(properties)) {
            OrderCreated order;
            try (JavaProcess crashing = start(broker, properties, BEFORE_COMMIT,
                    "before-commit-1")) {
                order = newOrder(database);
                broker.publish(order);

                assertThat(crashing.awaitExit(PATIENCE)).isEqualTo(CrashPoints.EXIT_CODE);
                assertThat(crashing.log()).contains("CRASH POINT " + BEFORE_COMMIT);
            }
            assertThat(effects(database, order)).as("rolled back by the crash").isZero();
            assertThat(database.replies(order.orderId())).isEmpty();
            assertThat(database.count("select count(*) from processed_events")).isZero();
            await().atMost(PATIENCE).untilAsserted(() -> assertThat(broker.ready(queue())).isEqualTo(1));

            try (JavaProcess restarted = start(broker, properties, null, "before-commit-2")) {
                await().atMost(PATIENCE).untilAsserted(() ->
                        assertThat(metric("events_processed_total", order.eventType(), "outcome=\"applied\"")).isEqualTo(1));
                awaitDrained(broker);
                assertThat(metric("events_duplicates_total", order.eventType())).isZero();
            }
            assertThat(effects(database, order)).isEqualTo(1);
            assertThat(database.replies(order.orderId())).containsExactly(expectedReply());
        }
    }

    /**
     * The database stops while events arrive and stays away far longer than any binder retry window
     * (and than a delivery limit of 2 would allow, had the retries been redeliveries). Once it is back,
     * each event is applied exactly once and nothing is dead-lettered.
     */
    @Test
    void eventsArrivingWhileTheDatabaseIsDownAreAppliedOnceWhenItIsBackAndNoneIsDeadLettered() {
        try (ThrowawayPostgres postgres = ThrowawayPostgres.start()) {
            String databaseName = service().replace('-', '_');
            Map<String, Object> properties = new LinkedHashMap<>(infrastructure.springProperties("unused",
                    infrastructure.createVhost("it-" + service() + "-database-down")));
            properties.putAll(TestInfrastructure.databaseProperties(postgres.server(), databaseName));
            postgres.createDatabase(databaseName);
            properties.put("messaging.inbox.backoff.max", "500ms");
            properties.put("spring.cloud.stream.rabbit.default.consumer.quorum.delivery-limit", 2);
            ServiceDatabase database = ServiceDatabase.on(postgres.server(), databaseName);

            try (BrokerClient broker = broker(properties);
                    JavaProcess service = start(broker, properties, null, "database-down")) {
                OrderCreated before = newOrder(database);
                List<OrderCreated> during = List.of(newOrder(database), newOrder(database), newOrder(database));
                broker.publish(before);
                await().atMost(PATIENCE).untilAsserted(() -> assertThat(effects(database, before)).isEqualTo(1));

                postgres.stopNow();
                during.forEach(broker::publish);
                await().atMost(PATIENCE).until(() -> metric("events_retries_total", null) >= 30);
                assertThat(broker.ready(queue() + ".dlq")).isZero();
                postgres.startServer();

                await().atMost(PATIENCE).untilAsserted(() -> {
                    for (OrderCreated order : during) {
                        assertThat(effects(database, order)).isEqualTo(1);
                    }
                });
                awaitDrained(broker);
                assertThat(service.isAlive()).isTrue();
                assertThat(metric("events_poison_total", null)).isZero();
                assertThat(database.count("select count(*) from processed_events")).isEqualTo(4);
                for (OrderCreated order : during) {
                    assertThat(database.replies(order.orderId())).containsExactly(expectedReply());
                }
            }
        }
    }

    /**
     * Stopped while it waits for the database, the service hands the message back to the queue
     * (nack with requeue) instead of letting it reach the binder's error handler and the DLQ; the next
     * instance applies it once the database is back.
     */
    @Test
    void aServiceStoppedDuringAnOutageHandsTheEventBackToTheQueue() {
        try (ThrowawayPostgres postgres = ThrowawayPostgres.start()) {
            String databaseName = service().replace('-', '_');
            Map<String, Object> properties = new LinkedHashMap<>(infrastructure.springProperties("unused",
                    infrastructure.createVhost("it-" + service() + "-stopped")));
            properties.putAll(TestInfrastructure.databaseProperties(postgres.server(), databaseName));
            postgres.createDatabase(databaseName);
            properties.put("messaging.inbox.backoff.max", "500ms");
            ServiceDatabase database = ServiceDatabase.on(postgres.server(), databaseName);

            try (BrokerClient broker = broker(properties)) {
                OrderCreated order;
                try (JavaProcess stopped = start(broker, properties, null, "stopped-1")) {
                    order = newOrder(database);
                    postgres.stopNow();
                    broker.publish(order);
                    await().atMost(PATIENCE).until(() -> metric("events_retries_total", null) >= 3);

                    stopped.stop();

                    assertThat(stopped.awaitExit(PATIENCE)).as("exit status after SIGTERM").isNotEqualTo(CrashPoints.EXIT_CODE);
                    assertThat(stopped.log()).contains("goes back to the queue");
                }
                await().atMost(PATIENCE).untilAsserted(() -> assertThat(broker.ready(queue())).isEqualTo(1));
                assertThat(broker.ready(queue() + ".dlq")).isZero();

                postgres.startServer();
                try (JavaProcess next = start(broker, properties, null, "stopped-2")) {
                    await().atMost(PATIENCE).untilAsserted(() -> assertThat(effects(database, order)).isEqualTo(1));
                    awaitDrained(broker);
                }
                assertThat(database.replies(order.orderId())).containsExactly(expectedReply());
            }
        }
    }

    private String queue() {
        return "order.events." + service();
    }

    private static BrokerClient broker(Map<String, Object> properties) {
        return BrokerClient.forVhost((String) properties.get("spring.rabbitmq.virtual-host"));
    }

    /** Starts the service and, once it is ready (its reply exchange declared), makes its replies routable. */
    private JavaProcess start(BrokerClient broker, Map<String, Object> properties, String crashAt, String name) {
        Map<String, Object> all = new LinkedHashMap<>(properties);
        all.put("server.port", port);
        all.put("management.server.port", managementPort);
        all.put("logging.level.com.example.messaging.inbox", "DEBUG");
        if (crashAt != null) {
            all.put("faults.crash-at", crashAt);
        }
        JavaProcess process = JavaProcess.startJar(Path.of("target", service() + ".jar"), all,
                LOGS.resolve(service() + "-" + name + ".log"));
        process.awaitReady(port, START);
        broker.bindSink(replyExchange());
        return process;
    }

    private void awaitDrained(BrokerClient broker) {
        await().atMost(PATIENCE).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            assertThat(broker.stats(queue())).isEqualTo(new BrokerClient.QueueStats(0, 0));
            assertThat(broker.ready(queue() + ".dlq")).isZero();
        });
    }

    /**
     * The sum of a counter in the service's Prometheus scrape over the series that carry the event type
     * (when given) and every extra label matcher, e.g. {@code outcome="applied"}.
     */
    private double metric(String name, String eventType, String... labels) {
        double sum = 0;
        for (String line : scrape().split("\n")) {
            if (!line.startsWith(name + "{")) {
                continue;
            }
            String series = line.substring(0, line.lastIndexOf('}') + 1);
            boolean matches = (eventType == null || series.contains("event_type=\"" + eventType + "\""))
                    && List.of(labels).stream().allMatch(series::contains);
            if (matches) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    private String scrape() {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(5)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new IllegalStateException("no metrics from the service on port " + managementPort, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
