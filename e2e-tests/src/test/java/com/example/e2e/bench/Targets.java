package com.example.e2e.bench;

import static com.example.e2e.bench.BenchResult.Bound.AT_LEAST;
import static com.example.e2e.bench.BenchResult.Bound.AT_MOST;
import static com.example.e2e.bench.BenchResult.Bound.BELOW;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The bars this project sets itself (issue 15), judged on one run's figures. */
final class Targets {

    /** The services, PostgreSQL and RabbitMQ together; the load generator is shown beside, not judged. */
    static final double SYSTEM_CPU_MS_PER_ORDER = 20;
    static final double PIPELINE_ORDERS_PER_SECOND = 100;
    static final double API_SHARE_OF_DATABASE = 50;
    static final double RELAY_SHARE_OF_BROKER = 60;
    /** At {@link EndToEnd#UTILISATION} of the pipeline's capacity. */
    static final double END_TO_END_P99_MS = 100;
    static final double REPLAY_P99_MS = 10;
    static final double RESIDENT_MIB = 300;
    static final double IDLE_PERCENT_OF_CORE = 1;

    private Targets() {
    }

    static List<BenchResult.Target> judge(BenchResult.Cost cost, Throughput databaseCeiling, BenchResult.Api orderApi,
            Throughput brokerCeiling, Throughput relayDrain, BenchResult.EndToEnd endToEnd, Latencies replays,
            BenchResult.Idle idle) {
        List<BenchResult.Target> targets = new ArrayList<>();
        targets.add(new BenchResult.Target("System CPU per order (services, PostgreSQL, RabbitMQ)",
                cost.systemCpuMillisPerOrder(), SYSTEM_CPU_MS_PER_ORDER, "ms", AT_MOST));
        targets.add(new BenchResult.Target("Orders/s the whole pipeline finishes (closed loop)",
                cost.capacityPerSecond(), PIPELINE_ORDERS_PER_SECOND, "orders/s", AT_LEAST));
        targets.add(new BenchResult.Target("Order API, share of the database ceiling",
                100 * orderApi.throughput().ratioTo(databaseCeiling), API_SHARE_OF_DATABASE, "%", AT_LEAST));
        targets.add(new BenchResult.Target("Relay drain, share of the broker ceiling",
                100 * relayDrain.ratioTo(brokerCeiling), RELAY_SHARE_OF_BROKER, "%", AT_LEAST));
        targets.add(new BenchResult.Target(String.format(Locale.ROOT, "End to end p99 (201 to final) at %.0f orders/s%s",
                endToEnd.offeredPerSecond(), endToEnd.requestedPerSecond() == null
                        ? " (" + Math.round(EndToEnd.UTILISATION * 100) + "% of the capacity)" : ""),
                endToEnd.createdToFinal().p99(), END_TO_END_P99_MS, "ms", BELOW));
        targets.add(new BenchResult.Target("Replay p99", replays.p99(), REPLAY_P99_MS, "ms", BELOW));
        idle.residentBytes().forEach((service, bytes) -> targets.add(new BenchResult.Target(
                "Resident memory of " + service, bytes / (1024.0 * 1024.0), RESIDENT_MIB, "MiB", AT_MOST)));
        idle.residentBytes().keySet().forEach(service -> targets.add(new BenchResult.Target("Idle CPU of " + service,
                idle.cpuPercentOfCore().get(service), IDLE_PERCENT_OF_CORE, "% of a core", AT_MOST)));
        return targets;
    }
}
