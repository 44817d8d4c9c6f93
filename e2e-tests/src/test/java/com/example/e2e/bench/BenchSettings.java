package com.example.e2e.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The sizes of a benchmark run, each a system property ({@code ./stack bench} passes them through).
 *
 * @param systemWarmup the least time orders go through the whole system before anything is measured
 *                     (bench.system-warmup-seconds); the warm-up then goes on until every service's JIT has compiled
 *                     its hot paths. 60 s left C2 busy in the measured phase (docs/performance/levers.md, "Seventh
 *                     round"), and 240 s was too short on a slow machine and too long on a fast one ("Tenth round")
 * @param warmupMax    the longest warm-up, quiet JIT or not (bench.warmup-max-seconds)
 * @param warmupJitPercent the warm-up ends once the JIT compiler threads used less than this share of the system's
 *                     CPU, in percent, over a window (bench.warmup-jit-percent)
 * @param cost         how long the clients place orders in the phase that measures what an order costs and how many
 *                     the whole pipeline finishes per second (bench.cost-seconds)
 * @param connections  concurrent connections of the database ceiling, and clients of the order API and of the cost
 *                     phases (bench.connections)
 * @param warmup       load before each closed-loop measurement that is not counted: the order API's JIT needs it,
 *                     having seen only the pipeline's rate during the system warm-up (bench.warmup-seconds)
 * @param measure      how long each closed-loop measurement counts (bench.seconds)
 * @param backlog      outbox rows the relay drains, and messages the broker ceiling publishes (bench.backlog)
 * @param rate         end-to-end arrival rate in orders per second (bench.rate); when empty, 60% of the capacity the
 *                     cost phase measured
 * @param endToEnd     how long orders arrive at that rate, counted (bench.e2e-seconds)
 * @param e2eWarmup    arrivals at that rate before, not counted (bench.e2e-warmup-seconds); the same before the
 *                     unloaded run
 * @param unloaded     how long orders arrive, counted, at 10% of the capacity ({@link EndToEnd#UNLOADED}), after the
 *                     run at 60%; 0 leaves that run out (bench.unloaded-seconds)
 * @param byRate       the shares of the capacity, between those two, at which orders arrive once more, counted for
 *                     bench.by-rate-seconds each, lowest first: where on the way from 10% to 60% the end-to-end p99
 *                     crosses its bar (bench.by-rate, percentages, comma-separated; none for none)
 * @param byRateSeconds how long orders arrive, counted, at each of those rates (bench.by-rate-seconds)
 * @param replays      replayed requests counted (bench.replays), at bench.rate, or 100 per second when it is not given
 * @param replayWarmup  replayed requests before those, at the same rate, not counted (bench.replay-warmup)
 * @param idle         how long the system runs without load while its idle CPU is measured (bench.idle-seconds)
 * @param levers       the levers to measure (bench.levers: names, comma-separated; empty for all, none for none)
 * @param leverWarmup  the least time orders go through the whole system after the services restart for a lever (or
 *                     the baseline), before its cost is measured; then as the system warm-up
 *                     (bench.lever-warmup-seconds; the system warm-up's by default)
 * @param leverCost    how long the clients place orders in a lever's cost phase (bench.lever-seconds)
 * @param leverBaselineAgain whether the baseline runs once more after the levers, to show how far two runs of the
 *                     same settings land apart (bench.lever-baseline-again; true unless false)
 */
record BenchSettings(Duration systemWarmup, Duration warmupMax, double warmupJitPercent, Duration cost,
        int connections, Duration warmup, Duration measure, int backlog, OptionalDouble rate, Duration endToEnd,
        Duration e2eWarmup, Duration unloaded, List<Double> byRate, Duration byRateSeconds, int replays,
        int replayWarmup, Duration idle, List<Levers.Lever> levers, Duration leverWarmup, Duration leverCost,
        boolean leverBaselineAgain) {

    private static final double REPLAY_RATE = 100;

    static BenchSettings fromSystemProperties() {
        Duration systemWarmup = seconds("bench.system-warmup-seconds", 120);
        String rate = System.getProperty("bench.rate", "").strip();
        return new BenchSettings(systemWarmup, seconds("bench.warmup-max-seconds", 600),
                decimal("bench.warmup-jit-percent", 3.0), seconds("bench.cost-seconds", 30),
                integer("bench.connections", 8),
                seconds("bench.warmup-seconds", 20), seconds("bench.seconds", 10), integer("bench.backlog", 20_000),
                rate.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(rate)),
                seconds("bench.e2e-seconds", 60), seconds("bench.e2e-warmup-seconds", 10),
                seconds("bench.unloaded-seconds", 30),
                shares(System.getProperty("bench.by-rate", "20,30,40,50")), seconds("bench.by-rate-seconds", 20),
                integer("bench.replays", 1_000), integer("bench.replay-warmup", 1_000),
                seconds("bench.idle-seconds", 30),
                Levers.select(System.getProperty("bench.levers", "")),
                seconds("bench.lever-warmup-seconds", (int) systemWarmup.toSeconds()),
                seconds("bench.lever-seconds", 20),
                !"false".equalsIgnoreCase(System.getProperty("bench.lever-baseline-again", "").strip()));
    }

    /** Replays per second: a replay reads and writes nothing but the answer, so the pipeline does not bound it. */
    double replayRate() {
        return rate.orElse(REPLAY_RATE);
    }

    /** "20,30,40,50" as 0.2, 0.3, 0.4, 0.5, lowest first; "none" or nothing for none. */
    static List<Double> shares(String percentages) {
        String list = percentages.strip();
        if (list.isEmpty() || list.equalsIgnoreCase("none")) {
            return List.of();
        }
        return Arrays.stream(list.split(",")).map(String::strip).map(BenchSettings::share).sorted().distinct().toList();
    }

    private static double share(String percent) {
        double share = Double.parseDouble(percent) / 100;
        if (share <= 0 || share > 1) {
            throw new IllegalArgumentException("bench.by-rate: " + percent + " is not a share of the capacity in "
                    + "percent (above 0, at most 100)");
        }
        return share;
    }

    private static int integer(String property, int otherwise) {
        String value = System.getProperty(property, "");
        return value.isBlank() ? otherwise : Integer.parseInt(value.trim());
    }

    private static double decimal(String property, double otherwise) {
        String value = System.getProperty(property, "");
        return value.isBlank() ? otherwise : Double.parseDouble(value.trim());
    }

    private static Duration seconds(String property, int otherwise) {
        return Duration.ofSeconds(integer(property, otherwise));
    }
}
