package com.example.e2e.bench;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import org.awaitility.Awaitility;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.e2e.topology.HarnessPaths;
import com.example.e2e.topology.ProcessTopology;
import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;
import com.example.e2e.workload.Seeder;
import com.example.events.OrderEvent;
import com.rabbitmq.client.Channel;

/**
 * One benchmark run on a started topology, phase by phase. The ceilings are measured on the same
 * machine, database server and broker node as the system, minutes apart, so their ratios hold even
 * where the absolute figures drift from run to run.
 *
 * <p>The cost phase comes first, right after the warm-up: clients in a closed loop, counted until the last of their
 * orders is final ({@link CostPhase}); it gives the pipeline's capacity, on which the end-to-end phase's rate rests.
 *
 * <p>While the order API and the relay are measured, the three consumer services are paused (SIGSTOP): the
 * figures are then order-service's own, against ceilings that do the same work, not the whole pipeline's
 * (which the end-to-end phase measures). What the paused consumers' queues collected is purged before they
 * resume, and the orders it belonged to are rejected.
 *
 * <p>The levers come last ({@link #levers()}): each restarts the services, so nothing measured after them would be
 * measured on the system the rest of the run saw.
 */
final class Bench {

    private static final Logger log = LoggerFactory.getLogger(Bench.class);
    private static final List<Service> CONSUMERS = List.of(Service.INVENTORY, Service.COUPON, Service.RISK);
    private static final Duration READY = Duration.ofMinutes(2);
    private static final Duration PATIENCE = Duration.ofMinutes(2);
    /** Four JVMs starting at once on two busy cores take minutes (the topology's first start allows three). */
    private static final Duration RESTART_READY = Duration.ofMinutes(5);
    /** The warm-up goes on in windows this long until the JIT compilers are quiet over one of them. */
    static final Duration WARM_UP_WINDOW = Duration.ofSeconds(30);
    /** The warm-up's orders may queue up behind a cold JIT: the API takes them faster than the pipeline finishes. */
    private static final Duration WARM_UP_PATIENCE = Duration.ofMinutes(5);
    /** A service stops gracefully within this (the relay's drain, the web server's) when there is no load. */
    private static final Duration GRACE = Duration.ofSeconds(45);

    private final ProcessTopology topology;
    private final HarnessPaths paths;
    private final BenchSettings settings;
    private final String serviceJvm;
    private final BenchOrders orders;

    Bench(ProcessTopology topology, HarnessPaths paths, BenchSettings settings, String serviceJvm) {
        this.topology = topology;
        this.paths = paths;
        this.settings = settings;
        this.serviceJvm = serviceJvm;
        this.orders = new BenchOrders(topology.node(Service.ORDER).baseUrl());
    }

    /** Every phase but the levers. */
    BenchResult run() throws Exception {
        Instant startedAt = Instant.now();
        BenchOrders.stock(new Seeder(() -> topology.node(Service.INVENTORY).baseUrl(),
                () -> topology.node(Service.COUPON).baseUrl()));
        BenchResult.Warmup warmup = warmUp(settings.systemWarmup());

        log.info("[bench] cost: {} clients for {} s, counted until every order is final", settings.connections(),
                settings.cost().toSeconds());
        BenchResult.Cost cost = CostPhase.measure("cost", topology, orders, settings.connections(), settings.cost());

        log.info("[bench] database ceiling: {} connections, {} s", settings.connections(), settings.measure().toSeconds());
        List<ProcessCpu.Tracked> tracked = CostPhase.systemAndLoadGenerator(topology);
        ClosedLoop.Result databaseCeiling = DatabaseCeiling.measure(topology.database(), paths.repositoryRoot(), orders,
                settings, tracked);
        log.info("[bench] database ceiling: {} tx/s", Math.round(databaseCeiling.throughput().perSecond()));

        byte[] message = OrderTransaction.samplePayload().getBytes(StandardCharsets.UTF_8);
        log.info("[bench] broker ceiling: {} messages of {} bytes to {} quorum queues", settings.backlog(),
                message.length, CONSUMERS.size());
        BrokerCeiling.Result brokerCeiling = BrokerCeiling.measure(topology.broker(), settings.backlog(), message,
                CONSUMERS.size());
        log.info("[bench] broker ceiling: {} msg/s", Math.round(brokerCeiling.throughput().perSecond()));

        log.info("[bench] writing a backlog of {} parked outbox rows", settings.backlog());
        RelayDrain.prepare(topology.database(), orders, settings.backlog(), settings.connections());

        consumers().forEach(ServiceNode::pause);
        ClosedLoop.Result orderApi;
        Throughput relayDrain;
        try {
            log.info("[bench] order API: {} clients, {} s", settings.connections(), settings.measure().toSeconds());
            orderApi = ClosedLoop.run("order-api", settings.connections(), settings.warmup(), settings.measure(),
                    index -> () -> orders.place(orders.fresh()).status() == 201, tracked);
            log.info("[bench] order API: {} orders/s, p99 {} ms", Math.round(orderApi.throughput().perSecond()),
                    orderApi.latency().p99());
            relayDrain = RelayDrain.measure(topology.database(), settings.backlog());
            log.info("[bench] relay drain: {} events/s", Math.round(relayDrain.perSecond()));
            purgeConsumerQueues();
            rejectPurgedOrders();
        } finally {
            consumers().forEach(ServiceNode::resume);
        }
        consumers().forEach(node -> node.awaitReady(READY));

        EndToEnd.Run endToEnd = EndToEnd.run(topology, orders, settings, cost.capacityPerSecond());
        log.info("[bench] end to end at {} orders/s: 201 -> final p99 {} ms", endToEnd.result().offeredPerSecond(),
                endToEnd.result().createdToFinal().p99());

        BenchResult.EndToEnd unloaded = null;
        if (!settings.unloaded().isZero()) {
            unloaded = EndToEnd.unloaded(topology, orders, settings, cost.capacityPerSecond()).result();
            log.info("[bench] end to end, unloaded, at {} orders/s: 201 -> final p50 {} ms, p99 {} ms",
                    unloaded.offeredPerSecond(), unloaded.createdToFinal().p50(), unloaded.createdToFinal().p99());
        }

        List<BenchResult.EndToEnd> byRate = new ArrayList<>();
        for (double share : settings.byRate()) {
            BenchResult.EndToEnd run = EndToEnd.byRate(topology, orders, settings, cost.capacityPerSecond(), share)
                    .result();
            log.info("[bench] end to end at {} orders/s: 201 -> final p50 {} ms, p99 {} ms", run.offeredPerSecond(),
                    run.createdToFinal().p50(), run.createdToFinal().p99());
            byRate.add(run);
        }

        // Until now order-service has answered new orders only: a replay's own way through it (the answer the order
        // statement gives on a conflict, the 200 with its header) is compiled while the first replays arrive, as the
        // other latency phases' warm-ups are before they count.
        Latencies replayWarmup = null;
        if (settings.replayWarmup() > 0) {
            log.info("[bench] replays, warm-up: {} at {} per second", settings.replayWarmup(), settings.replayRate());
            replayWarmup = replays(endToEnd.counted(), settings.replayWarmup(), 0);
            log.info("[bench] replays, warm-up: p50 {} ms, p99 {} ms", replayWarmup.p50(), replayWarmup.p99());
        }
        log.info("[bench] replays: {} at {} per second", settings.replays(), settings.replayRate());
        Latencies replays = replays(endToEnd.counted(), settings.replays(), settings.replayWarmup());
        log.info("[bench] replays: p50 {} ms, p99 {} ms", replays.p50(), replays.p99());

        IdlePhase.awaitQuiet(topology);
        log.info("[bench] idle: {} s without load", settings.idle().toSeconds());
        BenchResult.Idle idle = IdlePhase.measure(topology, settings.idle());
        log.info("[bench] idle, % of a core: {}", idle.cpuPercentOfCore().entrySet().stream()
                .map(entry -> entry.getKey() + " " + BenchReport.decimal(entry.getValue())).toList());

        BenchResult.Setup setup = new BenchResult.Setup(startedAt, Runtime.getRuntime().availableProcessors(),
                settings.connections(), message.length, CONSUMERS.size(), settings.backlog(), databaseDescription(),
                "RabbitMQ " + brokerCeiling.version() + ", durable quorum queues, publisher confirms", serviceJvm,
                warmup);
        // A request of the order API that did not get its 201 is an error.
        BenchResult.Api api = new BenchResult.Api(orderApi.throughput(), orderApi.latency(), orderApi.errors(),
                orderApi.cpuMillisPerOperation(), databaseCeiling.cpuMillisPerOperation());
        return new BenchResult(setup, cost, databaseCeiling.throughput(), api, brokerCeiling.throughput(), relayDrain,
                endToEnd.result(), unloaded, byRate, replays, replayWarmup, idle, null, Targets.judge(cost,
                        databaseCeiling.throughput(), api, brokerCeiling.throughput(), relayDrain, endToEnd.result(),
                        replays, idle));
    }

    /**
     * The cost of an order with the services restarted with each lever's settings, after a baseline measured the same
     * way (restarted with their normal settings): the same warm-up, the same phase, minutes apart rather than at the
     * two ends of a run. Nothing follows, so the services keep the last lever's settings until the topology closes.
     */
    BenchResult.LeverRuns levers() throws Exception {
        LeverMeasure baseline = leverRun(new Levers.Lever("baseline", "the normal settings", Map.of(), List.of()),
                OptionalDouble.empty());
        OptionalDouble capacity = OptionalDouble.of(baseline.cost().capacityPerSecond());
        List<Levers.Lever> levers = new ArrayList<>(settings.levers());
        if (!levers.isEmpty() && settings.leverBaselineAgain()) {
            levers.add(Levers.BASELINE_AGAIN);
        }
        List<BenchResult.LeverRun> runs = new ArrayList<>();
        for (Levers.Lever lever : levers) {
            LeverMeasure measured = leverRun(lever, capacity);
            runs.add(new BenchResult.LeverRun(lever.name(), lever.description(), lever.properties(), lever.jvmOptions(),
                    lever.services(), measured.cost(), measured.endToEnd().createdToFinal(),
                    measured.endToEnd().way(), measured.endToEnd().load()));
        }
        return new BenchResult.LeverRuns(settings.leverWarmup().toSeconds(), baseline.endToEnd().offeredPerSecond(),
                baseline.cost(), baseline.endToEnd().createdToFinal(), baseline.endToEnd().way(),
                baseline.endToEnd().load(), runs);
    }

    /**
     * One order of the warm-up. One without an answer within the client's timeout only counts as not placed: nothing
     * of the warm-up is measured, and an order it did create becomes final like the others (a benchmark run once lost
     * all its minutes when the virtual machine it ran on stood still for twenty seconds mid-warm-up).
     */
    private boolean warmUpOrder() throws IOException, InterruptedException {
        try {
            return orders.place(orders.fresh()).status() == 201;
        } catch (HttpTimeoutException noAnswer) {
            log.warn("[bench] warm-up: an order got no answer in time ({}); going on", noAnswer.getMessage());
            return false;
        }
    }

    private record LeverMeasure(BenchResult.Cost cost, BenchResult.EndToEnd endToEnd) {
    }

    /**
     * @param capacity the baseline's, once it ran: every run's orders then arrive at the same rate; empty for the
     *                 baseline itself, whose own capacity sets that rate
     */
    private LeverMeasure leverRun(Levers.Lever lever, OptionalDouble capacity) throws Exception {
        String name = lever.name();
        log.info("[bench] lever {}: restarting the services with {} {} ({})", name, lever.properties(),
                lever.jvmOptions(), lever.services().isEmpty() ? "every service" : lever.services());
        topology.overrideServices(lever::appliesTo, lever.properties(), lever.jvmOptions());
        restartServices();
        warmUp(settings.leverWarmup());
        log.info("[bench] lever {}: {} clients for {} s, counted until every order is final", name,
                settings.connections(), settings.leverCost().toSeconds());
        BenchResult.Cost cost = CostPhase.measure("lever " + name, topology, orders, settings.connections(),
                settings.leverCost());
        EndToEnd.Run endToEnd = EndToEnd.run(topology, orders, settings,
                capacity.orElse(cost.capacityPerSecond()));
        log.info("[bench] lever {}: end to end at {} orders/s: 201 -> final p50 {} ms, p99 {} ms", name,
                endToEnd.result().offeredPerSecond(), endToEnd.result().createdToFinal().p50(),
                endToEnd.result().createdToFinal().p99());
        return new LeverMeasure(cost, endToEnd.result());
    }

    /**
     * Stops every service gracefully, settles the databases ({@link #settleDatabases()}), then starts the services all
     * at once, as the topology's start does.
     */
    private void restartServices() throws SQLException {
        for (ServiceNode node : topology.nodes()) {
            int exit = node.stop(GRACE);
            if (exit != 143) {
                log.warn("[bench] {} stopped with exit code {} (143 is a graceful stop)", node.name(), exit);
            }
        }
        settleDatabases();
        topology.nodes().forEach(node -> node.start(""));
        topology.nodes().forEach(node -> node.awaitReady(RESTART_READY));
    }

    /**
     * Vacuums and analyses every database of the system and checkpoints, while no service runs, so that no run of the
     * lever phase pays for the dead rows and dirty pages the runs before it left (the main phases write some 50,000
     * rows, then update most of them): the first run after them, the baseline, was once two to four times slower at
     * every hop than the levers after it, hops no lever touched included.
     */
    private void settleDatabases() throws SQLException {
        long started = System.nanoTime();
        for (Service service : Service.values()) {
            try (Connection connection = Sql.connect(topology.database(), service);
                    Statement vacuum = connection.createStatement()) {
                vacuum.execute("vacuum (analyze)");
            }
        }
        try (Connection connection = Sql.connectToMaintenance(topology.database());
                Statement checkpoint = connection.createStatement()) {
            checkpoint.execute("checkpoint");
        }
        log.info("[bench] databases vacuumed, analysed and checkpointed in {} ms",
                Math.round((System.nanoTime() - started) / 1e6));
    }

    /**
     * Orders through the whole system, closed loop, for at least {@code minimum} and then until every service's JIT
     * has compiled what an order runs through: until the JIT compiler threads of the system's processes used less
     * than {@code bench.warmup-jit-percent} of its CPU over a window, or {@code bench.warmup-max-seconds} passed. A
     * fixed length left a fifth of a slow machine's cost in compilation and wasted minutes on a fast one. Then until
     * every order is final.
     */
    private BenchResult.Warmup warmUp(Duration minimum) throws SQLException {
        log.info("[bench] warm-up: {} clients for at least {} s through the whole system, until the JIT compilers use "
                + "under {}% of its CPU over {} s (at most {} s)", settings.connections(), minimum.toSeconds(),
                settings.warmupJitPercent(), WARM_UP_WINDOW.toSeconds(), settings.warmupMax().toSeconds());
        List<ProcessCpu.Tracked> system = CostPhase.systemProcesses(topology);
        long started = System.nanoTime();
        long placed = 0;
        double jitShare;
        boolean quiet;
        while (true) {
            ProcessCpu.Snapshot before = ProcessCpu.read(system);
            ClosedLoop.Result window = ClosedLoop.run("warm-up", settings.connections(), Duration.ZERO, WARM_UP_WINDOW,
                    index -> this::warmUpOrder);
            ProcessCpu.Snapshot after = ProcessCpu.read(system);
            placed += window.throughput().operations();
            double cpu = BenchResult.sum(after.millisSince(before));
            double jit = BenchResult.sum(after.compilerMillisSince(before));
            jitShare = cpu == 0 ? 0 : jit / cpu;
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            quiet = jitShare * 100 < settings.warmupJitPercent();
            log.info("[bench] warm-up: {} s, {} orders/s, JIT compilers {}% of the system's CPU", elapsed.toSeconds(),
                    Math.round(window.throughput().perSecond()), Math.round(jitShare * 1000) / 10.0);
            if ((quiet && elapsed.compareTo(minimum) >= 0) || elapsed.compareTo(settings.warmupMax()) >= 0) {
                break;
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        try (Connection connection = Sql.connect(topology.database(), Service.ORDER)) {
            Awaitility.await("the warm-up's orders are final").atMost(WARM_UP_PATIENCE)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> Sql.count(connection, "select count(*) from orders where status = 'CREATED'") == 0);
        }
        log.info("[bench] warm-up: {} orders in {} s", placed, Math.round(seconds));
        return new BenchResult.Warmup(seconds, jitShare, quiet);
    }

    private List<ServiceNode> consumers() {
        return CONSUMERS.stream().map(topology::node).toList();
    }

    /**
     * {@code count} replays of orders the end-to-end phase created, from the {@code first}-th on (round the list),
     * arriving at the rate asked for (a replay reads and writes nothing but the answer, so the pipeline's capacity does
     * not bound it): each must return the same order.
     */
    private Latencies replays(List<BenchOrders.Answer> originals, int count, int first) {
        List<BenchOrders.Answer> answers = OpenLoop.run(settings.replayRate(), count, PATIENCE,
                i -> orders.placeAsync(originals.get((first + i) % originals.size()).intent()));
        List<Long> nanos = new ArrayList<>();
        for (int i = 0; i < answers.size(); i++) {
            BenchOrders.Answer answer = answers.get(i);
            long original = originals.get((first + i) % originals.size()).orderId();
            if (answer.status() != 200 || !answer.replayed() || answer.orderId() != original) {
                throw new IllegalStateException("a replay of order " + original + " was answered " + answer.status()
                        + " with order " + answer.orderId() + (answer.replayed() ? "" : ", not marked as a replay"));
            }
            nanos.add(answer.nanos());
        }
        return Latencies.ofNanos(nanos.stream().mapToLong(Long::longValue).toArray());
    }

    private void purgeConsumerQueues() throws Exception {
        try (com.rabbitmq.client.Connection connection = BrokerCeiling.connect(topology.broker(), "bench-purge")) {
            Channel channel = connection.createChannel();
            for (Service consumer : CONSUMERS) {
                channel.queuePurge(OrderEvent.EXCHANGE + "." + consumer.moduleName());
            }
        }
    }

    /**
     * The orders whose OrderCreated was just purged (the order API's and the backlog's) could only become final by
     * their deadline, whose sweep would then cancel them all at once, tens of thousands of events in the middle of a
     * later phase. They are rejected now as the deadline would reject them, without the OrderCancelled: no consumer
     * has seen them, but for the few a paused consumer holds unacknowledged, whose late answers a rejected order
     * takes as it takes any late answer.
     */
    private void rejectPurgedOrders() throws SQLException {
        try (Connection connection = Sql.connect(topology.database(), Service.ORDER);
                Statement update = connection.createStatement()) {
            int rejected = update.executeUpdate("""
                    update orders set status = 'REJECTED',
                        inventory_step = case inventory_step when 'PENDING' then 'TIMED_OUT' else inventory_step end,
                        coupon_step = case coupon_step when 'PENDING' then 'TIMED_OUT' else coupon_step end,
                        risk_step = case risk_step when 'PENDING' then 'TIMED_OUT' else risk_step end,
                        rejection_reason = 'benchmark: its OrderCreated was purged', updated_at = now()
                    where status = 'CREATED'""");
            log.info("[bench] {} orders whose OrderCreated was purged are rejected", rejected);
        }
    }

    private String databaseDescription() throws SQLException {
        try (Connection connection = Sql.connect(topology.database(), Service.ORDER);
                Statement query = connection.createStatement();
                ResultSet rows = query.executeQuery(
                        "select current_setting('server_version'), current_setting('fsync'), "
                                + "current_setting('synchronous_commit'), current_setting('shared_buffers'), "
                                + "current_setting('track_commit_timestamp')")) {
            rows.next();
            return "PostgreSQL " + rows.getString(1) + ", fsync " + rows.getString(2) + ", synchronous_commit "
                    + rows.getString(3) + ", shared_buffers " + rows.getString(4) + ", track_commit_timestamp "
                    + rows.getString(5);
        }
    }
}
