package com.example.e2e.bench;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one {@code ./stack bench} run measured. Absolute rates drift from run to run on a shared
 * machine; the ratios of figures measured side by side in the same run are what the targets judge.
 *
 * @param setup         how the run was made (machine, infrastructure settings, sizes)
 * @param databaseCeiling the order transaction's statements over plain JDBC, {@code setup.connections()} at once
 * @param orderApi      {@code POST /orders} with fresh intents, closed loop, the same number of clients
 * @param brokerCeiling persistent publishes with confirms, pipelined, same message size and routing as the relay's
 * @param relayDrain    the order-service relay draining a backlog of {@code setup.backlog()} outbox rows
 * @param endToEnd      orders at a fixed arrival rate, from the 201 to the final state
 * @param replays       {@code POST /orders} replays of orders that exist
 * @param residentMemory each service's resident set size in bytes after the run (service name to bytes)
 * @param targets       the bars this project sets itself, each with its verdict
 */
public record BenchResult(Setup setup, Throughput databaseCeiling, Api orderApi, Throughput brokerCeiling,
        Throughput relayDrain, EndToEnd endToEnd, Latencies replays, Map<String, Long> residentMemory,
        List<Target> targets) {

    /**
     * @param startedAt      when the run began
     * @param cores          processors the JVM sees
     * @param connections    concurrent connections/clients of the database ceiling and the order API
     * @param messageBytes   body size of the messages the broker ceiling publishes (an OrderCreated's)
     * @param fanOut         queues every message is routed to (those bound to order.events)
     * @param backlog        outbox rows of the relay drain
     * @param database       PostgreSQL version and the settings that matter (fsync, synchronous_commit)
     * @param broker         RabbitMQ version and queue type
     * @param serviceJvm     the services' JVM options
     */
    public record Setup(Instant startedAt, int cores, int connections, int messageBytes, int fanOut, int backlog,
            String database, String broker, String serviceJvm) {
    }

    /** Closed-loop load: the rate it reached and the latency of each request. */
    public record Api(Throughput throughput, Latencies latency, int errors) {
    }

    /**
     * @param requestedPerSecond the arrival rate asked for (bench.rate)
     * @param capacityPerSecond  orders per second the whole pipeline sustained in a closed loop (the warm-up)
     * @param offeredPerSecond   the arrival rate used: the one asked for, or less where the pipeline cannot sustain
     *                           it (requests start on schedule whether or not earlier ones finished)
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
     */
    public record EndToEnd(double requestedPerSecond, double capacityPerSecond, double offeredPerSecond, double seconds,
            int placed, int failed, int confirmed, int rejected, int notFinal, Latencies createdToFinal,
            Latencies relayLag, Map<String, Latencies> consumerLag) {
    }

    /**
     * @param name     e.g. "Order API / database ceiling"
     * @param measured the figure, in {@code unit}
     * @param bar      the bar it is judged against
     * @param unit     "%", "ms" or "MiB"
     * @param atLeast  true when measured must reach the bar, false when it must stay under it
     */
    public record Target(String name, double measured, double bar, String unit, boolean atLeast) {

        public boolean met() {
            return atLeast ? measured >= bar : measured < bar;
        }
    }
}
