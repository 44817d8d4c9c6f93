package com.example.e2e.bench;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.e2e.topology.HarnessPaths;
import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;
import com.example.e2e.topology.Topology;
import com.example.e2e.workload.Seeder;
import com.example.events.OrderEvent;
import com.rabbitmq.client.Channel;

/**
 * One benchmark run on a started topology, phase by phase. The ceilings are measured on the same
 * machine, database server and broker node as the system, minutes apart, so their ratios hold even
 * where the absolute figures drift from run to run.
 *
 * <p>While the order API and the relay are measured, the three consumer services are paused (SIGSTOP): the
 * figures are then order-service's own, against ceilings that do the same work, not the whole pipeline's
 * (which the end-to-end phase measures). What the paused consumers' queues collected is purged before they
 * resume.
 */
final class Bench {

    private static final Logger log = LoggerFactory.getLogger(Bench.class);
    private static final List<Service> CONSUMERS = List.of(Service.INVENTORY, Service.COUPON, Service.RISK);
    private static final Duration READY = Duration.ofMinutes(2);
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    private final Topology topology;
    private final HarnessPaths paths;
    private final BenchSettings settings;
    private final String serviceJvm;
    private final BenchOrders orders;

    Bench(Topology topology, HarnessPaths paths, BenchSettings settings, String serviceJvm) {
        this.topology = topology;
        this.paths = paths;
        this.settings = settings;
        this.serviceJvm = serviceJvm;
        this.orders = new BenchOrders(topology.node(Service.ORDER).baseUrl());
    }

    BenchResult run() throws Exception {
        Instant startedAt = Instant.now();
        BenchOrders.stock(new Seeder(() -> topology.node(Service.INVENTORY).baseUrl(),
                () -> topology.node(Service.COUPON).baseUrl()));
        double capacity = warmUp();

        log.info("[bench] database ceiling: {} connections, {} s", settings.connections(), settings.measure().toSeconds());
        ClosedLoop.Result databaseCeiling = DatabaseCeiling.measure(topology.database(), paths.repositoryRoot(), orders,
                settings);
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
                    index -> () -> orders.place(orders.fresh()).status() == 201);
            log.info("[bench] order API: {} orders/s, p99 {} ms", Math.round(orderApi.throughput().perSecond()),
                    orderApi.latency().p99());
            relayDrain = RelayDrain.measure(topology.database(), settings.backlog());
            log.info("[bench] relay drain: {} events/s", Math.round(relayDrain.perSecond()));
            purgeConsumerQueues();
        } finally {
            consumers().forEach(ServiceNode::resume);
        }
        consumers().forEach(node -> node.awaitReady(READY));

        log.info("[bench] end to end: up to {} orders/s for {} s after {} s of warm-up", settings.rate(),
                settings.endToEnd().toSeconds(), settings.e2eWarmup().toSeconds());
        EndToEnd.Run endToEnd = EndToEnd.run(topology.database(), orders, settings, capacity);
        log.info("[bench] end to end at {} orders/s: 201 -> final p99 {} ms", endToEnd.result().offeredPerSecond(),
                endToEnd.result().createdToFinal().p99());

        log.info("[bench] replays: {} at {} per second", settings.replays(), settings.rate());
        Latencies replays = replays(endToEnd.counted());
        log.info("[bench] replays: p99 {} ms", replays.p99());

        Map<String, Long> memory = new LinkedHashMap<>();
        for (ServiceNode node : topology.nodes()) {
            memory.put(node.service().moduleName(), node.residentMemoryBytes());
        }
        BenchResult.Setup setup = new BenchResult.Setup(startedAt, Runtime.getRuntime().availableProcessors(),
                settings.connections(), message.length, CONSUMERS.size(), settings.backlog(), databaseDescription(),
                "RabbitMQ " + brokerCeiling.version() + ", durable quorum queues, publisher confirms", serviceJvm);
        // A request of the order API that did not get its 201 is an error.
        BenchResult.Api api = new BenchResult.Api(orderApi.throughput(), orderApi.latency(), orderApi.errors());
        return new BenchResult(setup, databaseCeiling.throughput(), api, brokerCeiling.throughput(), relayDrain,
                endToEnd.result(), replays, memory, Targets.judge(databaseCeiling.throughput(), api,
                        brokerCeiling.throughput(), relayDrain, endToEnd.result(), replays, memory));
    }

    /**
     * Orders through the whole system, closed loop, until every service's JIT has compiled what an order runs
     * through (on two cores that takes a minute or more under load: the first seconds run several times slower),
     * then until all of them are final. The rate of its last third is the pipeline's capacity.
     */
    private double warmUp() throws SQLException {
        log.info("[bench] warm-up: {} clients for {} s through the whole system", settings.connections(),
                settings.systemWarmup().toSeconds());
        Duration counted = settings.systemWarmup().dividedBy(3);
        ClosedLoop.Result warmUp = ClosedLoop.run("warm-up", settings.connections(),
                settings.systemWarmup().minus(counted), counted, index -> () -> orders.place(orders.fresh()).status() == 201);
        try (Connection connection = Sql.connect(topology.database(), Service.ORDER)) {
            Awaitility.await("the warm-up's orders are final").atMost(PATIENCE).pollInterval(Duration.ofMillis(500))
                    .until(() -> Sql.count(connection, "select count(*) from orders where status = 'CREATED'") == 0);
        }
        log.info("[bench] warm-up: the whole pipeline sustains {} orders/s", Math.round(warmUp.throughput().perSecond()));
        return warmUp.throughput().perSecond();
    }

    private List<ServiceNode> consumers() {
        return CONSUMERS.stream().map(topology::node).toList();
    }

    /**
     * Replays of orders the end-to-end phase created, arriving at the rate asked for (a replay reads and writes
     * nothing but the answer, so the pipeline's capacity does not bound it): each must return the same order.
     */
    private Latencies replays(List<BenchOrders.Answer> originals) {
        List<BenchOrders.Answer> answers = OpenLoop.run(settings.rate(), settings.replays(), PATIENCE,
                i -> orders.placeAsync(originals.get(i % originals.size()).intent()));
        List<Long> nanos = new ArrayList<>();
        for (int i = 0; i < answers.size(); i++) {
            BenchOrders.Answer answer = answers.get(i);
            long original = originals.get(i % originals.size()).orderId();
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

    private String databaseDescription() throws SQLException {
        try (Connection connection = Sql.connect(topology.database(), Service.ORDER);
                Statement query = connection.createStatement();
                ResultSet rows = query.executeQuery(
                        "select current_setting('server_version'), current_setting('fsync'), "
                                + "current_setting('synchronous_commit'), current_setting('shared_buffers')")) {
            rows.next();
            return "PostgreSQL " + rows.getString(1) + ", fsync " + rows.getString(2) + ", synchronous_commit "
                    + rows.getString(3) + ", shared_buffers " + rows.getString(4);
        }
    }
}
