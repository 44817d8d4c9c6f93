package com.example.e2e.bench;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything one {@code ./stack bench} run measured. Absolute rates drift from run to run on a shared
 * machine; the ratios of figures measured side by side in the same run are what the targets judge.
 *
 * @param setup         how the run was made (machine, infrastructure settings, sizes)
 * @param cost          what an order costs the whole system, and how many orders per second it finishes
 * @param databaseCeiling the order transaction's statements over plain JDBC, {@code setup.connections()} at once
 * @param orderApi      {@code POST /orders} with fresh intents, closed loop, the same number of clients
 * @param brokerCeiling persistent publishes with confirms, pipelined, same message size and routing as the relay's
 * @param relayDrain    the order-service relay draining a backlog of {@code setup.backlog()} outbox rows
 * @param endToEnd      orders at a fixed arrival rate, from the 201 to the final state
 * @param unloaded      the same at {@link EndToEnd#UNLOADED} of the capacity: the way's own latency, little of it
 *                      spent in queues; null when the run skipped it (bench.unloaded-seconds=0)
 * @param byRate        the same at the shares of the capacity bench.by-rate names, lowest first: where between the
 *                      two the p99 crosses its bar; empty when the run made none
 * @param replays       {@code POST /orders} replays of orders that exist, counted
 * @param replayWarmup  the replays before those, not counted (as every latency phase starts with a warm-up): the
 *                      services have answered new orders only until then; null when the run made none
 * @param idle          each process's CPU and each service's memory with no load, after the phases above
 * @param levers        the cost of an order with the services restarted with other settings, next to a baseline
 *                      measured the same way; null when the run skipped them (bench.levers=none) or has not run them yet
 * @param targets       the bars this project sets itself, each with its verdict
 */
public record BenchResult(Setup setup, Cost cost, Throughput databaseCeiling, Api orderApi, Throughput brokerCeiling,
        Throughput relayDrain, EndToEnd endToEnd, EndToEnd unloaded, List<EndToEnd> byRate, Latencies replays,
        Latencies replayWarmup, Idle idle, LeverRuns levers, List<Target> targets) {

    /** The sum of a figure over its processes or databases. */
    static double sum(Map<String, Double> figures) {
        return figures.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The same run with its lever runs. */
    public BenchResult withLevers(LeverRuns runs) {
        return new BenchResult(setup, cost, databaseCeiling, orderApi, brokerCeiling, relayDrain, endToEnd, unloaded,
                byRate, replays, replayWarmup, idle, runs, targets);
    }

    /**
     * @param startedAt      when the run began
     * @param cores          processors the JVM sees
     * @param connections    concurrent connections/clients of the database ceiling and the order API
     * @param messageBytes   body size of the messages the broker ceiling publishes (an OrderCreated's)
     * @param fanOut         queues every message is routed to (those bound to order.events)
     * @param backlog        outbox rows of the relay drain
     * @param database       PostgreSQL version and the settings that matter (fsync, synchronous_commit, ...)
     * @param broker         RabbitMQ version and queue type
     * @param serviceJvm     the services' JVM options
     */
    public record Setup(Instant startedAt, int cores, int connections, int messageBytes, int fanOut, int backlog,
            String database, String broker, String serviceJvm, Warmup warmup) {
    }

    /**
     * How long the system was warmed up before the first measurement, and how busy its JIT compilers still were.
     *
     * @param seconds  the warm-up's length
     * @param jitShare the share of the system's CPU its JIT compiler threads used over the warm-up's last window
     * @param quiet    whether the warm-up ended because that share fell below the threshold (else at its cap)
     */
    public record Warmup(double seconds, double jitShare, boolean quiet) {
    }

    /**
     * Closed-loop load: the rate it reached and the latency of each request, and where the CPU went, next to where it
     * went in the database ceiling that bounds it.
     *
     * @param cpuMillisPerOrder              what each process (the system's and the load generator) used per order
     *                                       over the measured window, the consumers paused
     * @param ceilingCpuMillisPerTransaction the same per transaction of the database ceiling, over its measured window
     */
    public record Api(Throughput throughput, Latencies latency, int errors, Map<String, Double> cpuMillisPerOrder,
            Map<String, Double> ceilingCpuMillisPerTransaction) {
    }

    /**
     * Orders placed by {@code clients} in a closed loop for {@code placingSeconds}, counted until the last of them is
     * final: the CPU each process used from the first request until then, and the database transactions and broker
     * messages of the same orders, each divided by the number of orders.
     *
     * @param orders                  orders placed (answered 201, counted in order-service's database)
     * @param failed                  requests not answered 201
     * @param notFinal                of those placed, not final when the phase stopped waiting (should be 0)
     * @param secondsToFinal          from the first request until the last order became final
     * @param cpuMillisPerOrder       the system's processes: the five services, PostgreSQL (the postmaster and all its
     *                                children) and RabbitMQ (the node's VM and its children), by name
     * @param jitCpuMillisPerOrder    of that, the services' JIT compiler threads, by name: code still being compiled,
     *                                a cost that ends once the JVM has compiled its hot paths
     * @param loadGeneratorCpuMillisPerOrder the benchmark's own JVM, which places the orders (and waits for them)
     * @param providerCpuMillisPerOrder the payment simulator, standing in for the external provider every paid order
     *                                is charged at: not part of the system either
     * @param transactionsPerOrder    committed and rolled back transactions, by service database
     * @param messagesPerOrder        what the broker counted
     * @param residentBytes           each service's resident set size (VmRSS) when the last order became final
     * @param statements              what the services' statements took inside PostgreSQL over the same orders
     */
    public record Cost(int clients, double placingSeconds, long orders, int failed, long notFinal, double secondsToFinal,
            Map<String, Double> cpuMillisPerOrder, Map<String, Double> jitCpuMillisPerOrder,
            double loadGeneratorCpuMillisPerOrder, double providerCpuMillisPerOrder,
            Map<String, Double> transactionsPerOrder, Messages messagesPerOrder, Map<String, Long> residentBytes,
            Statements statements, Map<String, Double> postgresCpuMillisPerOrder) {

        /** Orders per second the whole pipeline finished: placed and final. */
        public double capacityPerSecond() {
            return secondsToFinal <= 0 ? 0 : orders / secondsToFinal;
        }

        /** The services, PostgreSQL and RabbitMQ together; the load generator and the provider are not part of it. */
        public double systemCpuMillisPerOrder() {
            return sum(cpuMillisPerOrder);
        }

        /** Of {@link #systemCpuMillisPerOrder()}, the JIT compilers'. */
        public double systemJitCpuMillisPerOrder() {
            return sum(jitCpuMillisPerOrder);
        }

        public double transactionsPerOrderInAll() {
            return sum(transactionsPerOrder);
        }

        /** The largest service's resident set: the figure the memory bar judges. */
        public long largestResidentBytes() {
            return residentBytes.values().stream().mapToLong(Long::longValue).max().orElse(0);
        }
    }

    /**
     * The services' statements inside PostgreSQL ({@code pg_stat_statements}), per order, over every service database.
     *
     * @param callsPerOrder           statements executed
     * @param executionMillisPerOrder their execution, by PostgreSQL's clock (CPU and whatever they waited for)
     * @param planningMillisPerOrder  their planning
     * @param top                     the statements that took the most (execution and planning), most first
     */
    public record Statements(double callsPerOrder, double executionMillisPerOrder, double planningMillisPerOrder,
            List<Statement> top) {
    }

    /**
     * One statement, as {@code pg_stat_statements} normalises it (constants and parameters as {@code $n}), per order.
     *
     * @param database the service database it ran in
     * @param query    its text on one line, cut short when long
     */
    public record Statement(String database, String query, double callsPerOrder, double executionMillisPerOrder,
            double planningMillisPerOrder, double rowsPerOrder) {
    }

    /**
     * Broker messages per order.
     *
     * @param published    published by clients to exchanges (the relays' events, the replies among them)
     * @param delivered    delivered to consumers (one per queue an event is routed to, redeliveries included)
     * @param acknowledged acknowledged by consumers
     */
    public record Messages(double published, double delivered, double acknowledged) {
    }

    /**
     * No load for {@code seconds}.
     *
     * @param cpuPercentOfCore each process's CPU as a share of one core (the services, PostgreSQL, RabbitMQ)
     * @param residentBytes    each service's resident set size (VmRSS) at the end
     */
    public record Idle(double seconds, Map<String, Double> cpuPercentOfCore, Map<String, Long> residentBytes) {
    }

    /**
     * @param warmupSeconds     the least time the system is warmed up after each restart, before the cost is measured
     * @param endToEndRate      orders per second of each run's end-to-end phase: the same for every run, a share of the
     *                          baseline's capacity
     * @param baseline          the services restarted with their normal settings, warmed up and measured as each lever
     *                          is
     * @param baselineEndToEnd  201 to final state of the baseline's orders arriving at {@code endToEndRate}
     * @param baselineWay       where the baseline's orders spent that time ({@link EndToEnd#way()})
     * @param levers            one run per lever, in the order asked for
     */
    public record LeverRuns(double warmupSeconds, double endToEndRate, Cost baseline, Latencies baselineEndToEnd,
            Map<String, Latencies> baselineWay, Load baselineLoad, List<LeverRun> levers) {
    }

    /**
     * The cost with every service restarted with a lever's settings, and the latency at the baseline's rate.
     *
     * @param properties Spring properties given to the lever's services
     * @param jvmOptions JVM options given to the lever's services, after the others
     * @param services   the services that got them, by module name; empty for every service
     * @param endToEnd   201 to final state of orders arriving at {@link LeverRuns#endToEndRate()}
     * @param way        where those orders spent that time ({@link EndToEnd#way()})
     * @param load       how hard those orders worked the machine ({@link EndToEnd#load()})
     */
    public record LeverRun(String name, String description, Map<String, String> properties, List<String> jvmOptions,
            List<String> services, Cost cost, Latencies endToEnd, Map<String, Latencies> way, Load load) {
    }

    /**
     * @param requestedPerSecond the arrival rate asked for (bench.rate); null when not asked: then 60%
     *                           of the capacity, where queues stay short and latencies mean something
     * @param capacityPerSecond  orders per second the whole pipeline finished in a closed loop ({@link Cost})
     * @param offeredPerSecond   the arrival rate used (requests start on schedule whether or not earlier ones finished)
     * @param seconds            how long orders arrived
     * @param placed             orders answered 201
     * @param failed             requests not answered 201 (refused, or no answer within the client's timeout)
     * @param confirmed          of those placed, CONFIRMED
     * @param rejected           of those placed, REJECTED
     * @param notFinal           of those placed, not final when the run stopped waiting (should be 0)
     * @param createdToFinal     from the client receiving the 201 to the order's final state
     * @param relayLag           from the outbox row's commit time to the relay marking it sent (after the confirm)
     * @param consumerLag        per consumer service: from the OrderCreated outbox row to that consumer's
     *                           processed_events row
     * @param path               each milestone of a confirmed order's way ({@link OrderPath}), in the order they are
     *                           reached: the time since the 201
     * @param load               how hard the phase worked the machine
     */
    public record EndToEnd(Double requestedPerSecond, double capacityPerSecond, double offeredPerSecond, double seconds,
            int placed, int failed, int confirmed, int rejected, int notFinal, Latencies createdToFinal,
            Latencies relayLag, Map<String, Latencies> consumerLag, Map<String, Latencies> path, Load load) {

        /**
         * Every hop measured, in one table's rows: the relay lag, each consumer's lag (by service name), then the
         * milestones of the path in the order they are reached.
         */
        public Map<String, Latencies> way() {
            Map<String, Latencies> way = new LinkedHashMap<>();
            way.put("relay lag", relayLag);
            new TreeMap<>(consumerLag).forEach((service, lag) -> way.put("consumer lag: " + service, lag));
            way.putAll(path);
            return way;
        }
    }

    /**
     * How hard an end-to-end phase worked the machine.
     *
     * @param busy              the share of all cores' time spent running anything, the benchmark's own JVM included
     *                          ({@link MachineCpu}), from the first arrival to the last answer
     * @param steal             the share taken by the hypervisor for other virtual machines (0 where it does not say)
     * @param cpuMillisPerOrder the system's CPU (services, PostgreSQL, RabbitMQ) per order placed, from the first
     *                          arrival until the last order was final: the cost phase's figure at this rate
     * @param transactionsPerOrder database transactions per order placed, by service database, from the first arrival
     *                          until PostgreSQL had counted those of the last order ({@link DatabaseTransactions}): the
     *                          cost phase's figure at this rate, the services' upkeep in that time included
     */
    public record Load(double busy, double steal, double cpuMillisPerOrder, Map<String, Double> transactionsPerOrder) {

        public double transactionsPerOrderInAll() {
            return sum(transactionsPerOrder);
        }
    }

    /**
     * @param name     e.g. "Order API / database ceiling"
     * @param measured the figure, in {@code unit}
     * @param bar      the bar it is judged against
     * @param unit     "%", "% of a core", "ms", "MiB" or "orders/s"
     * @param bound    which side of the bar the figure must be on
     */
    public record Target(String name, double measured, double bar, String unit, Bound bound) {

        public boolean met() {
            return switch (bound) {
                case AT_LEAST -> measured >= bar;
                case AT_MOST -> measured <= bar;
                case BELOW -> measured < bar;
            };
        }
    }

    /** Which side of its bar a target's figure must be on. */
    public enum Bound {
        AT_LEAST("≥"), AT_MOST("≤"), BELOW("<");

        private final String symbol;

        Bound(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }
}
