package com.example.e2e.nemesis;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import com.example.e2e.topology.BrokerNode;
import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;
import com.example.e2e.topology.Topology;

/**
 * Injects one fault at a time into a topology and records it in a {@link FaultLog} with its proof:
 * the exit code of a killed or crashed process (137 for SIGKILL, 86 for a crash point), the process
 * state of a paused one, a broker process that is gone, a database that refuses connections. Every
 * operation heals what it broke before it returns (restarts, resumes), unless it says otherwise.
 */
public final class Nemesis {

    /** The exit status of a JVM killed by SIGKILL (128 + 9). */
    static final int SIGKILL_EXIT = 137;
    /**
     * How much longer than asked a fault may last while the flow has not met it yet: no event waited for a killed
     * broker, no payment met the provider's faults.
     */
    private static final Duration PATIENCE = Duration.ofSeconds(15);
    /** The exit code of a JVM that ended on SIGTERM after running its shutdown hooks (128 + 15). */
    private static final int SIGTERM_EXIT = 143;
    /** The exit status of a crash point (docs/contract.md). */
    static final int CRASH_EXIT = 86;

    private static final Logger log = LoggerFactory.getLogger(Nemesis.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

    private final Topology topology;
    private final FaultLog faults;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofMillis(500)).build();
    private final Map<ServiceNode, Armed> armedAt = new ConcurrentHashMap<>();

    /** A crash point armed in an instance: which, since when, and where its log stood then. */
    private record Armed(String point, Instant at, long logMark) {
    }

    private final LongSupplier unsentRows;

    /**
     * @param unsentRows outbox rows waiting to be published in all services (-1 when unknown): the broker
     *                   kill's proof that events were on their way while it was down
     */
    public Nemesis(Topology topology, FaultLog faults, LongSupplier unsentRows) {
        this.topology = topology;
        this.faults = faults;
        this.unsentRows = unsentRows;
    }

    public FaultLog faults() {
        return faults;
    }

    /** SIGKILL of a running instance; restarted after {@code downtime} and awaited until ready. */
    public Fault kill(ServiceNode node, Duration downtime) {
        Instant at = Instant.now();
        node.kill();
        int exit = node.awaitExit(EXIT_TIMEOUT);
        Hold.forAtLeast(downtime);
        node.start("");
        node.awaitReady(READY_TIMEOUT);
        return record(new Fault(FaultKind.SERVICE_KILL, node.name(), "", at, Duration.between(at, Instant.now()),
                exit == SIGKILL_EXIT, "exit code " + exit + (exit == SIGKILL_EXIT ? " (SIGKILL)" : "") + ", restarted"));
    }

    /**
     * Restarts an instance and kills it again {@code into} its start-up, before it is ready; then starts it
     * for good. Proof: it was alive and not yet ready when the SIGKILL came.
     */
    public Fault killDuringStartup(ServiceNode node, Duration into) {
        Instant at = Instant.now();
        if (node.isRunning()) {
            node.kill();
        }
        node.start("");
        Hold.forAtLeast(into);
        boolean starting = node.isRunning() && !isReady(node);
        node.kill();
        int exit = node.awaitExit(EXIT_TIMEOUT);
        node.start("");
        node.awaitReady(READY_TIMEOUT);
        return record(new Fault(FaultKind.KILL_DURING_STARTUP, node.name(), into.toMillis() + " ms into start-up", at,
                Duration.between(at, Instant.now()), starting && exit == SIGKILL_EXIT,
                (starting ? "alive and not ready" : "NOT in start-up (dead or already ready)") + " when killed, exit code "
                        + exit));
    }

    /**
     * Restarts an instance with a crash point armed and waits for it to halt there, then, when
     * {@code restartAfter}, starts it normally and waits until it is ready. See {@link #awaitCrash}.
     */
    public Fault crashAt(ServiceNode node, String point, Duration within, boolean restartAfter) {
        arm(node, point);
        Fault fault = awaitCrash(node, within);
        if (restartAfter) {
            node.start("");
            node.awaitReady(READY_TIMEOUT);
        }
        return fault;
    }

    /** (Re)starts an instance with a crash point armed ({@code faults.crash-at}); does not wait for readiness. */
    public void arm(ServiceNode node, String point) {
        if (node.isRunning()) {
            node.kill();
        }
        armedAt.put(node, new Armed(point, Instant.now(), node.log().mark()));
        node.start(point);
    }

    /**
     * Waits for an armed instance to halt at its crash point: exit code 86 and the service's
     * "CRASH POINT ... reached" log line. An instance that does not get there within {@code within} of being
     * ready is killed, and the fault is recorded as not having bitten. The window starts at readiness: on a
     * loaded machine a start can take over a minute (81 s seen in a CI soak), which must not eat the window.
     */
    public Fault awaitCrash(ServiceNode node, Duration within) {
        Armed armed = armedAt.remove(node);
        if (armed == null) {
            throw new IllegalStateException(node + " was not armed");
        }
        try {
            node.awaitReady(READY_TIMEOUT);
        } catch (AssertionError | RuntimeException exitedOrNeverReady) {
            // Halted while starting (some crash points are reached before readiness), or hung: the wait below tells.
        }
        int exit;
        try {
            exit = node.awaitExit(within);
        } catch (AssertionError notReached) {
            node.kill();
            exit = node.awaitExit(EXIT_TIMEOUT);
        }
        boolean logged = node.log().since(armed.logMark()).contains("CRASH POINT " + armed.point() + " reached");
        return record(new Fault(FaultKind.CRASH_POINT, node.name(), armed.point(), armed.at(),
                Duration.between(armed.at(), Instant.now()), exit == CRASH_EXIT && logged,
                "exit code " + exit + (logged ? ", crash point logged" : ", crash point NOT logged")));
    }

    /**
     * SIGKILL of the broker, down for {@code downtime}, then started again. It bites when the process is
     * gone and events piled up in the outboxes meanwhile (the flow really needed the broker). Right after
     * another fault the clients may still be backing off, so the broker stays down until the first event
     * waits for it, or {@link #PATIENCE} longer at most.
     */
    public Fault killBroker(Duration downtime) {
        Instant at = Instant.now();
        topology.broker().kill();
        boolean gone = !topology.broker().isRunning();
        Hold.forAtLeast(downtime);
        long waiting = Hold.until(unsentRows, PATIENCE);
        topology.broker().start();
        return record(new Fault(FaultKind.BROKER_KILL, "rabbitmq", "down " + downtime.toSeconds() + " s", at,
                Duration.between(at, Instant.now()), gone && waiting > 0, (gone ? "process gone after SIGKILL" : "process still alive")
                        + ", " + waiting + " outbox rows waiting before the restart, node restarted on the same data"));
    }

    /**
     * Raises the broker's memory alarm for at least {@code duration} while orders arrive, then clears it: the broker
     * blocks every publishing connection, so the relays' events wait in the outboxes. It bites when events did wait
     * while the node reported the alarm; as for a broker kill, the alarm stays on until the first one does,
     * {@link #PATIENCE} longer at most. The node is asked every second whether the alarm is still in effect
     * and it is raised again if not (as sustained memory pressure would): the fault says how often that happened.
     */
    public Fault memoryAlarm(Duration duration) {
        Instant at = Instant.now();
        BrokerNode broker = topology.broker();
        broker.memoryAlarm(true);
        AtomicInteger raisedAgain = new AtomicInteger();
        long waiting = 0;
        try {
            long windowEnds = System.nanoTime() + duration.toNanos();
            long patienceEnds = windowEnds + PATIENCE.toNanos();
            while (System.nanoTime() < patienceEnds && (System.nanoTime() < windowEnds || waiting <= 0)) {
                Hold.forAtLeast(Duration.ofSeconds(1));
                if (!broker.memoryAlarmed()) {
                    log.warn("The broker no longer reports the memory alarm: raising it again");
                    broker.memoryAlarm(true);
                    raisedAgain.incrementAndGet();
                }
                waiting = unsentRows.getAsLong();
            }
        } finally {
            broker.memoryAlarm(false);
        }
        return record(new Fault(FaultKind.BROKER_MEMORY_ALARM, "rabbitmq", "memory alarm " + duration.toSeconds() + " s",
                at, Duration.between(at, Instant.now()), waiting > 0,
                waiting + " outbox rows waiting while publishers were blocked, alarm cleared"
                        + (raisedAgain.get() > 0 ? "; the node had dropped the alarm and it was raised again "
                                + raisedAgain.get() + " times" : "")));
    }

    /**
     * A rolling deployment: each node in turn is stopped gracefully (SIGTERM, {@code grace} before SIGKILL) and
     * started again, the next one only once it is ready. It bites when every node stopped by itself in time (exit
     * code 143) and came back.
     */
    public Fault rollingRestart(List<ServiceNode> nodes, Duration grace) {
        Instant at = Instant.now();
        List<String> exits = new ArrayList<>();
        boolean graceful = true;
        for (ServiceNode node : nodes) {
            int exit = node.stop(grace);
            exits.add(node.name() + " exit " + exit);
            graceful &= exit == SIGTERM_EXIT;
            node.start("");
            node.awaitReady(READY_TIMEOUT);
        }
        return record(new Fault(FaultKind.ROLLING_RESTART, "every service", nodes.size() + " instances, one at a time",
                at, Duration.between(at, Instant.now()), graceful,
                String.join(", ", exits) + "; each ready again before the next one stopped"));
    }

    /**
     * Takes {@code count} messages from {@code queue} as they arrive (within {@code within}) and rejects each
     * without requeue, so that the broker dead-letters it into {@code <queue>.dlq}, as it does a message no consumer
     * could take. Whoever consumes the queue must be stopped meanwhile. It bites when all of them are there.
     */
    public Fault deadLetter(String queue, int count, Duration within) {
        Instant at = Instant.now();
        BrokerNode broker = topology.broker();
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("localhost");
        factory.setPort(broker.amqpPort());
        factory.setUsername(broker.user());
        factory.setPassword(broker.password());
        int rejected = 0;
        long dead;
        try (Connection connection = factory.newConnection("e2e-nemesis"); Channel channel = connection.createChannel()) {
            long deadline = System.nanoTime() + within.toNanos();
            while (rejected < count && System.nanoTime() < deadline) {
                GetResponse message = channel.basicGet(queue, false);
                if (message == null) {
                    Hold.forAtLeast(Duration.ofMillis(200));
                    continue;
                }
                channel.basicReject(message.getEnvelope().getDeliveryTag(), false);
                rejected++;
            }
            int expected = rejected;
            dead = Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> channel.messageCount(queue + ".dlq"), depth -> depth >= expected);
        } catch (IOException | TimeoutException | ConditionTimeoutException e) {
            return record(new Fault(FaultKind.REPLY_DEAD_LETTERED, queue, count + " messages", at,
                    Duration.between(at, Instant.now()), false, rejected + " rejected, then: " + e));
        }
        return record(new Fault(FaultKind.REPLY_DEAD_LETTERED, queue, count + " messages", at,
                Duration.between(at, Instant.now()), rejected == count,
                rejected + " rejected without requeue, " + dead + " in " + queue + ".dlq"));
    }

    /**
     * Makes the payment provider misbehave ({@code PUT /faults} on the simulator) for at least {@code duration} while
     * orders are paid for, then behave again. It bites when the simulator dealt every kind of fault asked for at least
     * once (its {@code GET /faults} counters): a 5xx, a withheld answer (an unknown outcome payment-service has to
     * resolve by asking), a decline. As for a broker kill, the faults stay on until each kind was dealt once,
     * {@link #PATIENCE} longer at most.
     */
    public Fault providerFaults(ProviderFaults faults, Duration duration) {
        Instant at = Instant.now();
        URI simulator = topology.node(Service.PAYMENT_SIMULATOR).baseUrl();
        Injected before = injected(simulator);
        Injected dealt = new Injected(0, 0, 0);
        try {
            setProviderFaults(simulator, faults);
            long windowEnds = System.nanoTime() + duration.toNanos();
            long patienceEnds = windowEnds + PATIENCE.toNanos();
            while (System.nanoTime() < patienceEnds && (System.nanoTime() < windowEnds || !dealt.covers(faults))) {
                Hold.forAtLeast(Duration.ofMillis(500));
                dealt = injected(simulator).minus(before);
            }
        } finally {
            setProviderFaults(simulator, ProviderFaults.NONE);
        }
        dealt = injected(simulator).minus(before);
        return record(new Fault(FaultKind.PROVIDER_FAULTS, Service.PAYMENT_SIMULATOR.moduleName(), faults.toString(), at,
                Duration.between(at, Instant.now()), dealt.covers(faults), dealt + ", then the provider behaved again"));
    }

    /** What the simulator's dice dealt ({@code GET /faults}' {@code injected}). */
    private record Injected(long errors, long withheldAnswers, long declines) {

        Injected minus(Injected earlier) {
            return new Injected(errors - earlier.errors, withheldAnswers - earlier.withheldAnswers,
                    declines - earlier.declines);
        }

        /** At least one of every kind the faults ask for. */
        boolean covers(ProviderFaults faults) {
            return (faults.errorBeforePercent() == 0 || errors > 0)
                    && (faults.timeoutAfterChargePercent() == 0 || withheldAnswers > 0)
                    && (faults.declinePercent() == 0 || declines > 0);
        }

        @Override
        public String toString() {
            return "the provider answered " + errors + " requests 503, withheld " + withheldAnswers
                    + " answers after charging and declined " + declines + " charges";
        }
    }

    private void setProviderFaults(URI simulator, ProviderFaults faults) {
        HttpRequest request = HttpRequest.newBuilder(simulator.resolve("/faults")).timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(faults.json()))
                .build();
        Awaitility.await("PUT /faults " + faults.json()).atMost(READY_TIMEOUT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    }

    private Injected injected(URI simulator) {
        HttpRequest request = HttpRequest.newBuilder(simulator.resolve("/faults")).timeout(Duration.ofSeconds(5)).build();
        JsonNode counters = Awaitility.await("GET /faults").atMost(READY_TIMEOUT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body())
                        .required("injected"), Objects::nonNull);
        return new Injected(counters.path("errors").asLong(), counters.path("withheld_answers").asLong(),
                counters.path("declines").asLong());
    }

    /** Immediate stop of PostgreSQL, down for {@code downtime}, then started again. */
    public Fault stopDatabase(Duration downtime) {
        Instant at = Instant.now();
        topology.database().stopNow();
        boolean refused = refusesConnections();
        Hold.forAtLeast(downtime);
        topology.database().start();
        return record(new Fault(FaultKind.DATABASE_STOP, "postgres", "down " + downtime.toSeconds() + " s", at,
                Duration.between(at, Instant.now()), refused,
                (refused ? "refused connections" : "still accepted connections") + " while stopped, restarted"));
    }

    /**
     * Pauses an instance (SIGSTOP) for {@code pause} while {@code takeover} (another running instance of the
     * same service) carries on, then resumes it. The pause should outlast the broker's heartbeat timeout,
     * so that the broker gives the zombie's unacknowledged messages to the other instance.
     */
    public Fault zombie(ServiceNode node, ServiceNode takeover, Duration pause) {
        if (!takeover.isRunning() || takeover.service() != node.service() || takeover == node) {
            throw new IllegalArgumentException(takeover + " cannot take over from " + node);
        }
        Instant at = Instant.now();
        node.pause();
        // Every thread of the process has to take the signal before the process shows as stopped.
        boolean paused = within(Duration.ofSeconds(10), node::isPaused);
        Hold.forAtLeast(pause);
        boolean stillPaused = node.isPaused();
        node.resume();
        boolean resumed = within(Duration.ofSeconds(10), () -> node.isRunning() && !node.isPaused());
        return record(new Fault(FaultKind.ZOMBIE, node.name(), "paused " + pause.toSeconds() + " s, " + takeover.name()
                + " took over", at, Duration.between(at, Instant.now()), paused && stillPaused && resumed,
                "process state " + (paused && stillPaused ? "stopped (T) throughout" : "NOT stopped") + ", "
                        + (resumed ? "running again" : "did not come back")));
    }

    /** Records a fault the caller injected and proved itself. */
    public Fault record(Fault fault) {
        faults.add(fault);
        log.info("Nemesis: {}", fault);
        return fault;
    }

    /** Whether the condition comes true within the timeout. */
    private static boolean within(Duration timeout, BooleanSupplier condition) {
        try {
            Awaitility.await().atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                    .until(condition::getAsBoolean);
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    private boolean isReady(ServiceNode node) {
        HttpRequest request = HttpRequest.newBuilder(node.baseUrl().resolve("/readyz"))
                .timeout(Duration.ofSeconds(1)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean refusesConnections() {
        try (var connection = DriverManager.getConnection(topology.database().jdbcUrl("postgres") + "?connectTimeout=2",
                topology.database().user(), topology.database().password())) {
            return false;
        } catch (SQLException e) {
            return true;
        }
    }
}
