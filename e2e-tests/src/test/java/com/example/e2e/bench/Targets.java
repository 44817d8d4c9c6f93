package com.example.e2e.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The bars this project sets itself (issue 9), judged on one run's figures. */
final class Targets {

    static final double API_SHARE_OF_DATABASE = 50;
    static final double RELAY_SHARE_OF_BROKER = 50;
    static final double END_TO_END_P99_MS = 250;
    static final double REPLAY_P99_MS = 20;
    static final double RESIDENT_MIB = 400;

    private Targets() {
    }

    static List<BenchResult.Target> judge(Throughput databaseCeiling, BenchResult.Api orderApi, Throughput brokerCeiling,
            Throughput relayDrain, BenchResult.EndToEnd endToEnd, Latencies replays, Map<String, Long> memory) {
        List<BenchResult.Target> targets = new ArrayList<>();
        targets.add(new BenchResult.Target("Order API, share of the database ceiling",
                100 * orderApi.throughput().ratioTo(databaseCeiling), API_SHARE_OF_DATABASE, "%", true));
        targets.add(new BenchResult.Target("Relay drain, share of the broker ceiling",
                100 * relayDrain.ratioTo(brokerCeiling), RELAY_SHARE_OF_BROKER, "%", true));
        targets.add(new BenchResult.Target("Orders/s the whole pipeline sustains (closed loop)", endToEnd.capacityPerSecond(),
                endToEnd.requestedPerSecond(), "orders/s", true));
        targets.add(new BenchResult.Target(String.format(Locale.ROOT, "End to end p99 (201 to final) at %.0f orders/s",
                endToEnd.offeredPerSecond()), endToEnd.createdToFinal().p99(), END_TO_END_P99_MS, "ms", false));
        targets.add(new BenchResult.Target("Replay p99", replays.p99(), REPLAY_P99_MS, "ms", false));
        memory.forEach((service, bytes) -> targets.add(new BenchResult.Target("Resident memory of " + service,
                bytes / (1024.0 * 1024.0), RESIDENT_MIB, "MiB", false)));
        return targets;
    }
}
