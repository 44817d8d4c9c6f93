package com.example.e2e.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.e2e.topology.ProcessTopology;
import com.example.e2e.topology.Service;

/**
 * What an order costs the whole system, and how many orders per second the whole pipeline finishes. Clients place
 * orders in a closed loop for a while; the phase ends when the last of those orders is final, so that the work of
 * every order counted is counted whole, however long the queues grew meanwhile. From the first request to that
 * moment: the CPU of each process of the system ({@link ProcessCpu}), and the database transactions and broker
 * messages, each read once their counters have caught up ({@link DatabaseTransactions}, {@link BrokerMessages}), and
 * what the services' statements took inside PostgreSQL ({@link DatabaseStatements}).
 *
 * <p>The system should be quiet when the phase starts (every earlier order final): whatever the counters still
 * owe to earlier work would be counted as this phase's. The phase's own queries are not counted: it reads the
 * counters over connections to other databases, and takes the polls for final orders out of order-service's.
 */
final class CostPhase {

    static final String POSTGRESQL = "PostgreSQL";
    static final String RABBITMQ = "RabbitMQ";
    /** The payment simulator keeps its ledger in the same PostgreSQL: its backends' CPU is in PostgreSQL's. */
    static final String PROVIDER_BACKENDS = "backends of the payment provider (its ledger)";
    private static final Logger log = LoggerFactory.getLogger(CostPhase.class);
    private static final ProcessCpu.Tracked LOAD_GENERATOR = new ProcessCpu.Tracked("load generator",
            ProcessHandle.current().pid(), false);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final String NOT_FINAL = "select count(*) from orders where id > ? and status = 'CREATED'";

    private CostPhase() {
    }

    /** The system's processes: the five services, PostgreSQL and RabbitMQ, each with its descendants. */
    static List<ProcessCpu.Tracked> systemProcesses(ProcessTopology topology) {
        List<ProcessCpu.Tracked> processes = new ArrayList<>();
        for (Service service : Service.ours()) {
            processes.add(new ProcessCpu.Tracked(service.moduleName(), topology.pid(topology.node(service)), true));
        }
        processes.add(new ProcessCpu.Tracked(POSTGRESQL, topology.databasePid(), true));
        processes.add(new ProcessCpu.Tracked(RABBITMQ, topology.brokerPid(), true));
        return processes;
    }

    /** The system's processes and the load generator (this JVM, its own threads only). */
    static List<ProcessCpu.Tracked> systemAndLoadGenerator(ProcessTopology topology) {
        List<ProcessCpu.Tracked> processes = systemProcesses(topology);
        processes.add(LOAD_GENERATOR);
        return processes;
    }

    static BenchResult.Cost measure(String name, ProcessTopology topology, BenchOrders orders, int clients,
            Duration placing) throws Exception {
        // Long enough for the polls' orders that a long queue forms: the API may take orders faster than they finish.
        Duration patience = Duration.ofMinutes(3).plus(placing.multipliedBy(3));
        try (Connection orderDb = Sql.connect(topology.database(), Service.ORDER)) {
            long before = Sql.count(orderDb, "select coalesce(max(id), 0) from orders");
            // What the counters still owe to earlier work (this connection's start included) is flushed by now.
            DatabaseTransactions.awaitCounted(Instant.now());
            DatabaseStatements.reset(topology.database());
            List<ProcessCpu.Tracked> system = systemProcesses(topology);
            List<ProcessCpu.Tracked> tracked = new ArrayList<>(system);
            tracked.add(LOAD_GENERATOR);
            ProcessCpu.Tracked provider = new ProcessCpu.Tracked(Service.PAYMENT_SIMULATOR.moduleName(),
                    topology.pid(topology.node(Service.PAYMENT_SIMULATOR)), true);
            tracked.add(provider);
            ProcessCpu.Snapshot cpuBefore = ProcessCpu.read(tracked);
            PostgresCpu.Reading postgresBefore = postgresReading(topology);
            Map<String, Long> transactionsBefore = DatabaseTransactions.read(topology.database());
            BrokerMessages.Counts messagesBefore = BrokerMessages.read(topology.broker());
            Instant started = Instant.now();

            ClosedLoop.Result placed = ClosedLoop.run(name, clients, Duration.ZERO, placing,
                    index -> () -> orders.place(orders.fresh()).status() == 201);
            AtomicLong polls = new AtomicLong();
            try {
                Awaitility.await(name + ": every order final").atMost(patience).pollInterval(POLL)
                        .until(() -> {
                            polls.incrementAndGet();
                            return notFinal(orderDb, before) == 0;
                        });
            } catch (ConditionTimeoutException e) {
                // Reported (not_final), not thrown: the run fails on it once the report is written.
            }
            ProcessCpu.Snapshot cpuAfter = ProcessCpu.read(tracked);
            PostgresCpu.Reading postgresAfter = postgresReading(topology);
            Map<String, Long> resident = residentBytes(topology);
            DatabaseStatements.Counted statements = DatabaseStatements.read(topology.database());

            BrokerMessages.Counts messages = BrokerMessages.awaitCounted(topology.broker(), messagesBefore,
                    sentSince(topology, started));
            DatabaseTransactions.awaitCounted(Instant.now());
            Map<String, Long> transactionsAfter = DatabaseTransactions.read(topology.database());
            // Each poll was one transaction of order-service's database, and sentSince one of every database; the
            // queries below come after the counts.
            long ordersPlaced = Sql.count(orderDb, "select count(*) from orders where id > " + before);
            long notFinal = notFinal(orderDb, before);
            Instant lastFinal = lastFinal(orderDb, before).orElse(Instant.now());

            Map<String, Double> cpu = cpuAfter.millisSince(cpuBefore);
            Map<String, Double> jit = cpuAfter.compilerMillisSince(cpuBefore);
            double perOrder = Math.max(1, ordersPlaced);
            Map<String, Double> cpuPerOrder = new LinkedHashMap<>();
            Map<String, Double> jitPerOrder = new LinkedHashMap<>();
            system.forEach(process -> {
                cpuPerOrder.put(process.name(), cpu.get(process.name()) / perOrder);
                jitPerOrder.put(process.name(), jit.get(process.name()) / perOrder);
            });
            Map<String, Double> postgresPerOrder = new LinkedHashMap<>();
            postgresTicks(postgresBefore, postgresAfter).forEach((category, ticks) -> postgresPerOrder.put(category,
                    ProcessCpu.millis(ticks) / perOrder));
            Map<String, Double> transactionsPerOrder = new LinkedHashMap<>();
            transactionsBefore.forEach((database, count) -> {
                long own = (database.equals(Service.ORDER.database()) ? polls.get() : 0) + 1;
                transactionsPerOrder.put(database, (transactionsAfter.get(database) - count - own) / perOrder);
            });
            BenchResult.Cost cost = new BenchResult.Cost(clients, placing.toSeconds(), ordersPlaced, placed.errors(),
                    notFinal, Duration.between(started, lastFinal).toNanos() / 1e9, cpuPerOrder, jitPerOrder,
                    cpu.get(LOAD_GENERATOR.name()) / perOrder, cpu.get(provider.name()) / perOrder, transactionsPerOrder,
                    new BenchResult.Messages(messages.published() / perOrder, messages.delivered() / perOrder,
                            messages.acknowledged() / perOrder), resident,
                    statements.perOrder(perOrder), postgresPerOrder);
            log.info("[bench] {}: {} orders, the last final after {} s: {} orders/s; system CPU {} ms per order ({} of it "
                    + "JIT compilation) {}", name, ordersPlaced, Math.round(cost.secondsToFinal()),
                    Math.round(cost.capacityPerSecond()), BenchReport.ms(cost.systemCpuMillisPerOrder()),
                    BenchReport.ms(cost.systemJitCpuMillisPerOrder()), cpuPerOrder.entrySet().stream()
                            .map(entry -> entry.getKey() + " " + BenchReport.ms(entry.getValue())).toList());
            return cost;
        }
    }

    /** The databases whose backends {@link PostgresCpu} counts apart, each with whose backends they are. */
    private static Map<String, String> backendLabels() {
        Map<String, String> labels = new LinkedHashMap<>();
        for (Service service : Service.ours()) {
            labels.put(service.database(), "backends of " + service.moduleName());
        }
        labels.put(Service.PAYMENT_SIMULATOR.database(), PROVIDER_BACKENDS);
        return labels;
    }

    private static PostgresCpu.Reading postgresReading(ProcessTopology topology) {
        return PostgresCpu.read(topology.databasePid(), List.copyOf(backendLabels().keySet()),
                topology.database().user());
    }

    /**
     * PostgreSQL's CPU ticks between two readings by what its processes do ({@link PostgresCpu}), the backends of
     * each database named by whose they are.
     */
    private static Map<String, Long> postgresTicks(PostgresCpu.Reading before, PostgresCpu.Reading after) {
        Map<String, String> labels = backendLabels();
        Map<String, Long> labelled = new LinkedHashMap<>();
        PostgresCpu.between(before, after, List.copyOf(labels.keySet()))
                .forEach((category, ticks) -> labelled.put(labels.getOrDefault(category, category), ticks));
        return labelled;
    }

    /** Each service's resident set size (VmRSS), by service. */
    static Map<String, Long> residentBytes(ProcessTopology topology) {
        Map<String, Long> resident = new LinkedHashMap<>();
        for (Service service : Service.ours()) {
            resident.put(service.moduleName(), topology.node(service).residentMemoryBytes());
        }
        return resident;
    }

    /** Outbox rows every service's relay marked sent since {@code since}: messages the broker confirmed. */
    private static long sentSince(ProcessTopology topology, Instant since) throws SQLException {
        long sent = 0;
        for (Service service : Service.ours()) {
            try (Connection connection = Sql.connect(topology.database(), service);
                    PreparedStatement query = connection.prepareStatement(
                            "select count(*) from outbox_events where sent_at >= ?")) {
                query.setObject(1, since.atOffset(ZoneOffset.UTC));
                try (ResultSet rows = query.executeQuery()) {
                    rows.next();
                    sent += rows.getLong(1);
                }
            }
        }
        return sent;
    }

    private static long notFinal(Connection orderDb, long after) throws SQLException {
        try (PreparedStatement query = orderDb.prepareStatement(NOT_FINAL)) {
            query.setLong(1, after);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static Optional<Instant> lastFinal(Connection orderDb, long after) throws SQLException {
        try (PreparedStatement query = orderDb.prepareStatement(
                "select max(updated_at) from orders where id > ? and status <> 'CREATED'")) {
            query.setLong(1, after);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return Optional.ofNullable(rows.getObject(1, OffsetDateTime.class)).map(OffsetDateTime::toInstant);
            }
        }
    }
}
