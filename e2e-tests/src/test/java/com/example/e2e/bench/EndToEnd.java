package com.example.e2e.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.e2e.topology.DatabaseNode;
import com.example.e2e.topology.ProcessTopology;
import com.example.e2e.topology.Service;

/**
 * End to end at a fixed arrival rate: orders arrive on schedule ({@link OpenLoop}), and each one's way
 * through the system is read back from the databases afterwards: when its outbox row was written and
 * marked sent, when each consumer recorded the event as processed, and when the order reached its final
 * state. The client's clock and PostgreSQL's are the same machine's clock.
 */
final class EndToEnd {

    private static final Logger log = LoggerFactory.getLogger(EndToEnd.class);
    private static final Duration PATIENCE = Duration.ofMinutes(2);
    /** The share of the pipeline's capacity an open loop may offer: queues stay short, latencies mean something. */
    static final double UTILISATION = 0.6;
    /** The share of the capacity at which the way's own latency shows: little of it is spent waiting in queues. */
    static final double UNLOADED = 0.1;

    /** The orders of a run: those arriving during the warm-up are placed, waited for, and not counted. */
    record Run(List<BenchOrders.Answer> counted, BenchResult.EndToEnd result) {
    }

    private EndToEnd() {
    }

    /**
     * @param capacity orders per second the whole pipeline finished in a closed loop ({@link CostPhase}); the arrival
     *                 rate is {@link #UTILISATION} of it unless bench.rate asks for another (an open loop above
     *                 capacity only measures a queue that grows for as long as the run lasts)
     */
    static Run run(ProcessTopology topology, BenchOrders orders, BenchSettings settings, double capacity)
            throws SQLException {
        double rate = settings.rate().orElse(Math.max(1, Math.floor(UTILISATION * capacity)));
        log.info("[bench] end to end: {} orders/s ({}) for {} s after {} s of warm-up", rate,
                settings.rate().isPresent() ? "bench.rate" : Math.round(UTILISATION * 100) + "% of the capacity",
                settings.endToEnd().toSeconds(), settings.e2eWarmup().toSeconds());
        return run(topology, orders, new Rates(settings.rate().isPresent() ? rate : null, capacity, rate,
                settings.endToEnd().toSeconds(), 0), settings.e2eWarmup());
    }

    /**
     * The same at {@link #UNLOADED} of the capacity (at least one order a second) for bench.unloaded-seconds: what the
     * way itself takes, beside {@link #run}'s figures, where a busy machine adds queues to every hop.
     */
    static Run unloaded(ProcessTopology topology, BenchOrders orders, BenchSettings settings, double capacity)
            throws SQLException {
        return atShare("unloaded", topology, orders, settings, capacity, UNLOADED, settings.unloaded());
    }

    /**
     * The same at {@code share} of the capacity (at least one order a second) for bench.by-rate-seconds: one point of
     * the way from the unloaded run to {@link #run}'s, where the end-to-end latency meets the queues of a busier
     * machine.
     */
    static Run byRate(ProcessTopology topology, BenchOrders orders, BenchSettings settings, double capacity,
            double share) throws SQLException {
        return atShare("by rate", topology, orders, settings, capacity, share, settings.byRateSeconds());
    }

    private static Run atShare(String phase, ProcessTopology topology, BenchOrders orders, BenchSettings settings,
            double capacity, double share, Duration seconds) throws SQLException {
        double rate = Math.max(1, Math.floor(share * capacity));
        log.info("[bench] end to end, {}: {} orders/s ({}% of the capacity) for {} s after {} s of warm-up", phase,
                rate, Math.round(share * 100), seconds.toSeconds(), settings.e2eWarmup().toSeconds());
        return run(topology, orders, new Rates(null, capacity, rate, seconds.toSeconds(), 0), settings.e2eWarmup());
    }

    /**
     * @param rates the rate to offer and for how long; its {@code failed} is counted here
     */
    private static Run run(ProcessTopology topology, BenchOrders orders, Rates rates, Duration warmupTime)
            throws SQLException {
        DatabaseNode database = topology.database();
        double rate = rates.offered();
        int warmup = (int) Math.round(rate * warmupTime.toSeconds());
        int counted = (int) Math.round(rate * rates.seconds());
        List<ProcessCpu.Tracked> system = CostPhase.systemProcesses(topology);
        // What the counters still owe to the phase before (its backends idle since) is flushed by now.
        DatabaseTransactions.awaitCounted(Instant.now());
        Map<String, Long> transactionsBefore = DatabaseTransactions.read(database);
        ProcessCpu.Snapshot cpuBefore = ProcessCpu.read(system);
        MachineCpu.Snapshot before = MachineCpu.read();
        List<BenchOrders.Answer> answers = OpenLoop.run(rate, warmup + counted, PATIENCE,
                i -> orders.placeAsync(orders.fresh()));
        MachineCpu.Shares cores = MachineCpu.between(before, MachineCpu.read());
        long answered = answers.stream().filter(answer -> answer.status() == 201).count();
        List<BenchOrders.Answer> placed = answers.subList(warmup, answers.size()).stream()
                .filter(answer -> answer.status() == 201).toList();
        int failed = counted - placed.size();
        Long[] orderIds = placed.stream().map(BenchOrders.Answer::orderId).toArray(Long[]::new);
        try (Connection connection = Sql.connect(database, Service.ORDER)) {
            AtomicLong polls = new AtomicLong();
            try {
                Awaitility.await("every order reaches its final state").atMost(PATIENCE)
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> {
                            polls.incrementAndGet();
                            return notFinal(connection, orderIds) == 0;
                        });
            } catch (ConditionTimeoutException e) {
                // Reported (not_final), not thrown: the figures of the orders that did finish still tell something.
            }
            // Every order placed, the warm-up's too, from its arrival until the last counted one was final.
            double perOrder = Math.max(1, answered);
            double cpuMillisPerOrder = BenchResult.sum(ProcessCpu.read(system).millisSince(cpuBefore)) / perOrder;
            DatabaseTransactions.awaitCounted(Instant.now());
            Map<String, Long> transactionsAfter = DatabaseTransactions.read(database);
            Map<String, Double> transactionsPerOrder = new LinkedHashMap<>();
            transactionsBefore.forEach((name, count) -> {
                // Each poll above was one transaction of order-service's database; the queries below come after.
                long own = name.equals(Service.ORDER.database()) ? polls.get() : 0;
                transactionsPerOrder.put(name, (transactionsAfter.get(name) - count - own) / perOrder);
            });
            return new Run(placed, measure(database, connection, placed, orderIds,
                    new Rates(rates.requested(), rates.capacity(), rate, rates.seconds(), failed),
                    new BenchResult.Load(cores.busy(), cores.steal(), cpuMillisPerOrder, transactionsPerOrder)));
        }
    }

    /** How the phase ran, for the result. */
    private record Rates(Double requested, double capacity, double offered, double seconds, int failed) {
    }

    private static BenchResult.EndToEnd measure(DatabaseNode database, Connection orderDb, List<BenchOrders.Answer> placed,
            Long[] orderIds, Rates rates, BenchResult.Load load) throws SQLException {
        Map<Long, Instant> answeredAt = new HashMap<>();
        placed.forEach(answer -> answeredAt.put(answer.orderId(), answer.answeredAt()));
        List<Long> toFinal = new ArrayList<>();
        int confirmed = 0;
        int rejected = 0;
        int notFinal = 0;
        try (PreparedStatement query = orderDb.prepareStatement(
                "select id, status, updated_at from orders where id = any(?)")) {
            query.setArray(1, orderDb.createArrayOf("bigint", orderIds));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    String status = rows.getString("status");
                    if (status.equals("CREATED")) {
                        notFinal++;
                        continue;
                    }
                    if (status.equals("CONFIRMED")) {
                        confirmed++;
                    } else {
                        rejected++;
                    }
                    Instant finalAt = rows.getObject("updated_at", OffsetDateTime.class).toInstant();
                    toFinal.add(Duration.between(answeredAt.get(rows.getLong("id")), finalAt).toNanos());
                }
            }
        }
        Map<UUID, Instant> createdAt = new HashMap<>();
        List<Long> relayLag = new ArrayList<>();
        try (PreparedStatement query = orderDb.prepareStatement("""
                select id, created_at, sent_at from outbox_events
                where event_type = 'OrderCreated' and aggregate_id = any(?)""")) {
            query.setArray(1, orderDb.createArrayOf("text", placed.stream().map(a -> Long.toString(a.orderId())).toArray()));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    Instant created = rows.getObject("created_at", OffsetDateTime.class).toInstant();
                    createdAt.put(rows.getObject("id", UUID.class), created);
                    OffsetDateTime sent = rows.getObject("sent_at", OffsetDateTime.class);
                    if (sent != null) {
                        relayLag.add(Duration.between(created, sent.toInstant()).toNanos());
                    }
                }
            }
        }
        Map<String, Latencies> consumerLag = new LinkedHashMap<>();
        for (Service consumer : List.of(Service.INVENTORY, Service.COUPON, Service.RISK)) {
            consumerLag.put(consumer.moduleName(), Latencies.ofNanos(consumerLag(database, consumer, createdAt)));
        }
        return new BenchResult.EndToEnd(rates.requested(), rates.capacity(), rates.offered(), rates.seconds(),
                placed.size(), rates.failed(), confirmed, rejected, notFinal, Latencies.ofNanos(toArray(toFinal)), Latencies.ofNanos(toArray(relayLag)),
                consumerLag, OrderPath.measure(database, answeredAt), load);
    }

    /** From each OrderCreated row's creation to the consumer's processed_events row of that event. */
    private static long[] consumerLag(DatabaseNode database, Service consumer, Map<UUID, Instant> createdAt)
            throws SQLException {
        List<Long> lags = new ArrayList<>();
        try (Connection connection = Sql.connect(database, consumer)) {
            OrderPath.processedAt(connection, createdAt.keySet())
                    .forEach((event, processed) -> lags.add(Duration.between(createdAt.get(event), processed).toNanos()));
        }
        return toArray(lags);
    }

    private static long notFinal(Connection connection, Long[] orderIds) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "select count(*) from orders where status = 'CREATED' and id = any(?)")) {
            query.setArray(1, connection.createArrayOf("bigint", orderIds));
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static long[] toArray(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).toArray();
    }
}
