package com.example.e2e.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.e2e.check.Checker;
import com.example.e2e.check.Evidence;
import com.example.e2e.check.LogEvidence;
import com.example.e2e.check.Quiescence;
import com.example.e2e.check.Quiet;
import com.example.e2e.check.Requirement;
import com.example.e2e.check.SystemState;
import com.example.e2e.check.Verdict;
import com.example.e2e.nemesis.Fault;
import com.example.e2e.nemesis.FaultLog;
import com.example.e2e.nemesis.Nemesis;
import com.example.e2e.report.ScenarioResult;
import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;
import com.example.e2e.topology.Topology;
import com.example.e2e.workload.Catalog;
import com.example.e2e.workload.History;
import com.example.e2e.workload.Intent;
import com.example.e2e.workload.IntentGenerator;
import com.example.e2e.workload.IntentHistory;
import com.example.e2e.workload.OrderClient;
import com.example.e2e.workload.Outcome;
import com.example.e2e.workload.RetryPolicy;
import com.example.e2e.workload.Seeder;
import com.example.e2e.workload.Workload;
import com.example.testsupport.TestTokens;

import tools.jackson.databind.json.JsonMapper;

/**
 * One scenario, Jepsen style: seed the scenario's catalog, place a warm-up order, run the workload
 * while the fault script strikes, heal everything, wait until quiet, read the state, let the checker
 * judge history, state and evidence, add the result to the report, and fail with every violated
 * invariant.
 */
final class Scenario {

    private static final Logger log = LoggerFactory.getLogger(Scenario.class);
    private static final Duration QUIET_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
    private static final int ROUND = 100;

    private final String name;
    private final String description;
    private int intents = 60;
    private double minutes;
    private int clients = 4;
    private double intentsPerSecond = 15;
    private boolean progress;
    private boolean warmUp = true;
    private boolean onlyConfirmations;
    private Duration cancelWithin;
    private final List<Requirement> requirements = new ArrayList<>();

    private Scenario(String name, String description) {
        this.name = name;
        this.description = description;
    }

    static Scenario named(String name, String description) {
        return new Scenario(name, description);
    }

    Scenario intents(int count) {
        this.intents = count;
        return this;
    }

    /** Keep placing intents for this long (0: place {@link #intents(int)} and stop). */
    Scenario minutes(double duration) {
        this.minutes = duration;
        return this;
    }

    Scenario clients(int count) {
        this.clients = count;
        return this;
    }

    Scenario rate(double perSecond) {
        this.intentsPerSecond = perSecond;
        return this;
    }

    Scenario showProgress() {
        this.progress = true;
        return this;
    }

    /** Places no warm-up order: for a scenario that begins while a service every confirmation needs has not run. */
    Scenario withoutWarmUp() {
        this.warmUp = false;
        return this;
    }

    /** Only intents planned to be confirmed: no planned rejections, races or invalid requests. */
    Scenario onlyConfirmations() {
        this.onlyConfirmations = true;
        return this;
    }

    /** Users who cancel do so up to this long after their order was acknowledged (default: a few seconds). */
    Scenario cancellingWithin(Duration window) {
        this.cancelWithin = window;
        return this;
    }

    Scenario requires(Requirement... required) {
        requirements.addAll(Arrays.asList(required));
        return this;
    }

    /** Runs the scenario with the given fault script and fails the test unless every invariant holds. */
    ScenarioResult run(Consumer<ScenarioRun> faults) {
        return run(run -> { }, faults);
    }

    /**
     * Runs the scenario: {@code setup} after the warm-up and before the workload starts (e.g. to start an
     * instance with a crash point armed), {@code faults} while the workload runs.
     */
    ScenarioResult run(Consumer<ScenarioRun> setup, Consumer<ScenarioRun> faults) {
        E2eSystem system = E2eSystem.get();
        Topology topology = system.topology();
        Instant started = Instant.now();
        Catalog catalog = new Catalog(system.nextSlot());
        LogEvidence logs = LogEvidence.markNow(topology);
        Map<String, Long> redeliveriesBefore = system.reader().redeliveries();
        IntentGenerator generator = new IntentGenerator(catalog, system.rules(), name.hashCode());
        if (cancelWithin != null) {
            generator.cancellingWithin(cancelWithin);
        }
        Seeder seeder = system.seeder();
        OrderClient client = new OrderClient(system.orderServices(), RetryPolicy.standard());

        List<Intent> planned = minutes > 0 ? List.of()
                : onlyConfirmations ? generator.confirmations(intents) : generator.next(intents);
        seeder.stock(catalog.initialStock(), catalog::priceCents);
        seeder.coupons(catalog.couponsFor(planned));
        History warmUp = this.warmUp ? warmUp(system, catalog, client) : History.empty();

        FaultLog faultLog = new FaultLog();
        Workload workload = new Workload(client, clients, intentsPerSecond);
        Nemesis nemesis = new Nemesis(topology, faultLog, system.reader()::unsentRows);
        ScenarioRun run = new ScenarioRun(topology, nemesis, workload::finished, minutes > 0 ? Integer.MAX_VALUE : intents,
                logs::duplicatesSuppressed);
        setup.accept(run);
        ProgressLine progressLine = progress ? ProgressLine.start(name, workload, faultLog, planned.size()) : null;
        CompletableFuture<History> flow = CompletableFuture.supplyAsync(() -> {
            try {
                History placed = minutes > 0 ? rounds(workload, generator, seeder, catalog) : workload.run(planned);
                while (run.isHeldOpen()) {
                    placed = placed.plus(round(workload, generator, seeder, catalog, ROUND));
                }
                return placed;
            } finally {
                run.markWorkloadDone();
            }
        });
        Throwable scriptFailure = null;
        try {
            faults.accept(run);
        } catch (RuntimeException | AssertionError e) {
            // Still let the clients finish, heal, check and report: the report shows what the failure left.
            scriptFailure = e;
        } finally {
            run.releaseWorkload();
        }
        History history = warmUp.plus(flow.join());
        heal(topology, run);
        if (progressLine != null) {
            progressLine.stop();
        }
        Quiet quiet = new Quiescence(system.reader()).await(QUIET_TIMEOUT);
        SystemState state = system.reader().read();
        Evidence evidence = new Evidence(faultLog.faults(), logs.duplicatesSuppressed(),
                redeliveredSince(redeliveriesBefore, system.reader().redeliveries(), faultLog), history.replays(),
                history.replaysAfterRetry(), history.retriedIntents(), state.orders().stream()
                        .filter(order -> catalog.ownsUser(order.userId()) && order.status().equals("CANCELLED")
                                && "REFUNDED".equals(order.paymentStep()))
                        .count());
        List<Verdict> verdicts = Checker.check(catalog, history, state, evidence, requirements, quiet);
        ScenarioResult result = result(started, catalog, history, state, faultLog, evidence, verdicts, quiet.waited());
        system.report().add(result);
        log.info("Scenario {}: {}", name, result.passed() && scriptFailure == null ? "PASS" : "FAIL");
        if (!quiet.reached()) {
            // Whatever kept this scenario from settling must not be inherited by the next one.
            restartServices(topology);
        }
        if (scriptFailure != null) {
            throw new AssertionError("the fault script of scenario " + name + " failed", scriptFailure);
        }
        List<Verdict> failed = verdicts.stream().filter(verdict -> !verdict.passed()).toList();
        assertThat(failed).as("violated invariants of scenario %s (report: %s, logs: %s)", name,
                system.report().markdownFile(), topology.nodes().get(0).log().location()).isEmpty();
        return result;
    }

    private History rounds(Workload workload, IntentGenerator generator, Seeder seeder, Catalog catalog) {
        long deadline = System.nanoTime() + (long) (minutes * 60e9);
        History history = History.empty();
        while (System.nanoTime() < deadline && (intents <= 0 || history.intents().size() < intents)) {
            int size = intents <= 0 ? ROUND : Math.min(ROUND, intents - history.intents().size());
            history = history.plus(round(workload, generator, seeder, catalog, size));
        }
        return history;
    }

    /** More intents of the scenario's mix, with the coupons they need. */
    private static History round(Workload workload, IntentGenerator generator, Seeder seeder, Catalog catalog, int size) {
        List<Intent> round = generator.next(size);
        seeder.coupons(catalog.couponsFor(round));
        return workload.run(round);
    }

    /** The first order of the scenario, before any fault: it must be confirmed, and it takes the used coupon. */
    private static History warmUp(E2eSystem system, Catalog catalog, OrderClient client) {
        IntentHistory warmUp = client.place(catalog.warmUpIntent(UUID.randomUUID()));
        assertThat(warmUp.outcome()).as("warm-up order of slot %d: %s", catalog.slot(), warmUp.attempts())
                .isEqualTo(Outcome.ACKED);
        HttpClient http = HttpClient.newHttpClient();
        JsonMapper json = JsonMapper.builder().build();
        Awaitility.await("warm-up order " + warmUp.orderId() + " confirmed").atMost(Duration.ofMinutes(1))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> {
                    URI uri = system.orderServices().get().get(0).resolve("/orders/" + warmUp.orderId());
                    String body = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2))
                            .header("Authorization", "Bearer " + TestTokens.admin()).build(),
                            HttpResponse.BodyHandlers.ofString()).body();
                    String status = json.readTree(body).path("status").asString();
                    if (status.equals("REJECTED")) {
                        throw new AssertionError("warm-up order rejected: " + body);
                    }
                    return status.equals("CONFIRMED");
                });
        return new History(List.of(warmUp));
    }

    /**
     * Brings the system back to its base shape: broker and database up, every paused instance resumed,
     * the scenario's extra instances gone, the first instance of every service (and the payment provider's
     * stand-in) running and ready.
     */
    private static void heal(Topology topology, ScenarioRun run) {
        if (!topology.database().isRunning()) {
            topology.database().start();
        }
        if (!topology.broker().isRunning()) {
            topology.broker().start();
        }
        for (ServiceNode node : topology.nodes()) {
            if (node.isRunning() && node.isPaused()) {
                node.resume();
            }
        }
        for (ServiceNode extra : run.extras()) {
            if (extra.isRunning()) {
                extra.kill();
            }
        }
        for (Service service : Service.values()) {
            ServiceNode base = topology.node(service);
            if (!base.isRunning()) {
                base.start("");
            }
        }
        for (Service service : Service.values()) {
            topology.node(service).awaitReady(READY_TIMEOUT);
        }
    }

    /** Kills and starts the first instance of every service; the evidence of the failure stays in their logs. */
    private static void restartServices(Topology topology) {
        log.warn("The system did not settle: restarting every service before the next scenario");
        for (Service service : Service.values()) {
            ServiceNode base = topology.node(service);
            if (base.isRunning()) {
                base.kill();
            }
            base.start("");
        }
        for (Service service : Service.values()) {
            topology.node(service).awaitReady(READY_TIMEOUT);
        }
    }

    /** The broker's counters restart with the broker: after a broker kill only the later part is known. */
    private static Map<String, Long> redeliveredSince(Map<String, Long> before, Map<String, Long> after, FaultLog faults) {
        boolean brokerRestarted = faults.faults().stream().anyMatch(fault -> fault.target().equals("rabbitmq"));
        Map<String, Long> redelivered = new LinkedHashMap<>();
        after.forEach((queue, count) -> {
            long delta = brokerRestarted ? count : count - before.getOrDefault(queue, 0L);
            if (delta > 0) {
                redelivered.put(queue, delta);
            }
        });
        return redelivered;
    }

    private ScenarioResult result(Instant started, Catalog catalog, History history, SystemState state, FaultLog faults,
            Evidence evidence, List<Verdict> verdicts, Duration quietAfter) {
        Map<String, Long> intentsByOutcome = new LinkedHashMap<>();
        for (Outcome outcome : Outcome.values()) {
            intentsByOutcome.put(outcome.name(), history.count(outcome));
        }
        Map<String, Long> orders = state.orders().stream().filter(order -> catalog.ownsUser(order.userId()))
                .collect(Collectors.groupingBy(SystemState.Order::status, LinkedHashMap::new, Collectors.counting()));
        Map<String, Long> faultsByKind = faults.byKind().entrySet().stream()
                .collect(Collectors.toMap(entry -> entry.getKey().name(), Map.Entry::getValue));
        Map<String, Long> duplicates = new LinkedHashMap<>();
        new EnumMap<>(evidence.duplicatesSuppressed()).forEach((service, count) -> duplicates.put(service.moduleName(), count));
        List<ScenarioResult.InvariantResult> invariants = verdicts.stream()
                .map(verdict -> new ScenarioResult.InvariantResult(verdict.invariant().name(),
                        verdict.invariant().sentence(), verdict.passed(), verdict.violationCount(), verdict.violations()))
                .toList();
        return new ScenarioResult(name, description, verdicts.stream().allMatch(Verdict::passed),
                Duration.between(started, Instant.now()).toMillis() / 1000.0, intentsByOutcome, history.attempts(),
                history.retriedIntents(), history.replays(), history.replaysAfterRetry(), orders, faultsByKind,
                faults.faults().stream().map(Fault::toString).toList(), duplicates, evidence.redelivered(),
                quietAfter.toMillis() / 1000.0, invariants);
    }
}
