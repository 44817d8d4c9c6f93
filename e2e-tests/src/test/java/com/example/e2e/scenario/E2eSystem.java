package com.example.e2e.scenario;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assumptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.e2e.check.StateReader;
import com.example.e2e.report.Report;
import com.example.e2e.topology.ContainerTopology;
import com.example.e2e.topology.HarnessPaths;
import com.example.e2e.topology.ProcessTopology;
import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;
import com.example.e2e.topology.Topology;
import com.example.e2e.workload.RiskRules;
import com.example.e2e.workload.Seeder;

/**
 * The one running system all scenarios of a test JVM share (starting it takes longer than most
 * scenarios), with the report they all write to. Scenarios stay independent by working in their
 * own catalog slot (users, skus, coupons) and by leaving the system quiet and healed.
 */
final class E2eSystem {

    private static final Logger log = LoggerFactory.getLogger(E2eSystem.class);

    private static E2eSystem instance;
    private static RuntimeException startFailure;
    /** One report per test JVM, even when a scenario needs a system of its own (see {@link #startWithout}). */
    private static Report sharedReport;

    private final Topology topology;
    private final StateReader reader;
    private final Report report;
    private final RiskRules rules;
    private final AtomicInteger slots = new AtomicInteger();
    private final Map<Service, Map<String, Object>> overrides;
    private final String driver;

    private E2eSystem(Topology topology, String driver, Report report, RiskRules rules,
            Map<Service, Map<String, Object>> overrides) {
        this.topology = topology;
        this.driver = driver;
        this.overrides = overrides;
        this.reader = new StateReader(topology.database(), topology.broker(),
                () -> topology.node(Service.PAYMENT_SIMULATOR).baseUrl());
        this.report = report;
        this.rules = rules;
    }

    /** The running system, started on first use; a failed start fails every later scenario the same way. */
    static synchronized E2eSystem get() {
        if (startFailure != null) {
            throw new IllegalStateException("the e2e system failed to start", startFailure);
        }
        if (instance == null) {
            try {
                instance = start();
            } catch (RuntimeException e) {
                startFailure = e;
                throw e;
            }
        }
        return instance;
    }

    /**
     * Replaces the running system, if any, with a new one on the processes driver in which the given service has
     * never run: its first instance exists but is not started, for the scenario to start. The old system is
     * stopped first (two would not fit the machine); the next scenario shares this one, or starts a new one with
     * {@link #get()} once this is closed.
     */
    static synchronized E2eSystem startWithout(Service heldBack) {
        closeIfStarted();
        startFailure = null;
        instance = start("processes", Set.of(heldBack));
        return instance;
    }

    /**
     * Skips the calling scenario unless the system runs (or would run) on this driver: a scenario runs on the driver
     * where it proves most, and {@code .ci/run} runs the processes-only ones in a second step.
     */
    static void assumeDriver(String driver) {
        String current = instance != null ? instance.driver
                : driver(System.getProperty("e2e.driver", "auto"));
        Assumptions.assumeTrue(current.equals(driver), "runs on the " + driver + " driver only, this run is on " + current);
    }

    /**
     * A setting of the service's instances from their next start on, over the harness's own: for a scenario that
     * restarts an instance with, say, a short deadline. {@link #clearOverrides()} ends it (again from the next start).
     */
    void override(Service service, String property, Object value) {
        overrides.computeIfAbsent(service, ignored -> new ConcurrentHashMap<>()).put(property, value);
    }

    void clearOverrides() {
        overrides.clear();
    }

    /** Stops the system if this JVM started one; the next {@link #get()} would start a new one. */
    static synchronized void closeIfStarted() {
        if (instance != null) {
            instance.topology.close();
            instance = null;
        }
    }

    private static E2eSystem start() {
        return start(driver(System.getProperty("e2e.driver", "auto")), Set.of());
    }

    private static E2eSystem start(String driver, Set<Service> heldBack) {
        HarnessPaths paths = HarnessPaths.fromSystemProperties();
        RiskRules rules = RiskRules.standard();
        Map<Service, Map<String, Object>> overrides = new ConcurrentHashMap<>();
        // Read at every start of an instance, so that a scenario's override applies to the instances it restarts.
        Function<Service, Map<String, Object>> settings = service -> {
            Map<String, Object> all = settings(service, rules);
            all.putAll(overrides.getOrDefault(service, Map.of()));
            return all;
        };
        Topology topology = driver.equals("containers") ? new ContainerTopology(paths, settings)
                : new ProcessTopology(paths, settings);
        try {
            topology.start(heldBack);
        } catch (RuntimeException e) {
            topology.close();
            throw e;
        }
        if (sharedReport == null) {
            sharedReport = new Report(paths.output(), driver);
        }
        return new E2eSystem(topology, driver, sharedReport, rules, overrides);
    }

    /** The driver to use: as asked, or for {@code auto} containers when a Docker daemon answers, else processes. */
    private static String driver(String requested) {
        switch (requested) {
            case "processes":
            case "containers":
                return requested;
            case "auto":
                String chosen = ContainerTopology.dockerAvailable() ? "containers" : "processes";
                log.info("e2e.driver=auto: {} ({})", chosen,
                        chosen.equals("containers") ? "a Docker daemon answers" : "no Docker daemon answers");
                return chosen;
            default:
                throw new IllegalArgumentException("e2e.driver=" + requested
                        + " is not a driver; use processes, containers or auto");
        }
    }

    /** What the harness sets on every service besides where the database and broker are. */
    static Map<String, Object> settings(Service service, RiskRules rules) {
        Map<String, Object> settings = new LinkedHashMap<>();
        // The broker notices a paused (zombie) consumer after two missed heartbeats and hands its
        // unacknowledged messages to another instance.
        settings.put("spring.rabbitmq.requested-heartbeat", "5s");
        // Every duplicate the inbox suppresses is logged at DEBUG: the evidence that duplicates arrived.
        settings.put("logging.level.com.example.messaging.inbox.Inbox", "DEBUG");
        // Recover within seconds of a broker or database outage rather than after the production backoffs.
        settings.put("messaging.relay.backoff.max", "2s");
        settings.put("messaging.inbox.backoff.max", "2s");
        // A backlog after an outage must not make a restarted instance look unready.
        settings.put("messaging.relay.health.max-unsent-age", "30m");
        if (service == Service.RISK) {
            settings.put("risk.blocked-user-ids", rules.blockedUsers().stream().map(String::valueOf)
                    .collect(Collectors.joining(",")));
            settings.put("risk.max-units-per-order", rules.maxUnitsPerOrder());
        }
        return settings;
    }

    Topology topology() {
        return topology;
    }

    StateReader reader() {
        return reader;
    }

    Report report() {
        return report;
    }

    RiskRules rules() {
        return rules;
    }

    int nextSlot() {
        return slots.incrementAndGet();
    }

    /** The order-service instances a client sends to: those running, or all of them while none runs. */
    Supplier<List<URI>> orderServices() {
        return () -> {
            List<ServiceNode> running = topology.running(Service.ORDER);
            List<ServiceNode> targets = running.isEmpty()
                    ? topology.nodes().stream().filter(node -> node.service() == Service.ORDER).toList()
                    : running;
            return targets.stream().map(ServiceNode::baseUrl).toList();
        };
    }

    Seeder seeder() {
        return new Seeder(() -> firstRunning(Service.INVENTORY), () -> firstRunning(Service.COUPON));
    }

    URI firstRunning(Service service) {
        return topology.running(service).stream().findFirst().orElse(topology.node(service)).baseUrl();
    }
}
