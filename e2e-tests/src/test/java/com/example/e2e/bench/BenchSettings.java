package com.example.e2e.bench;

import java.time.Duration;

/**
 * The sizes of a benchmark run, each a system property ({@code ./stack bench} passes them through).
 *
 * @param systemWarmup orders through the whole system before anything is measured, so that every service's JIT
 *                     has compiled its hot paths (bench.system-warmup-seconds)
 * @param connections  concurrent connections of the database ceiling, and clients of the order API (bench.connections)
 * @param warmup       load before each closed-loop measurement that is not counted: the order API's JIT needs it,
 *                     having seen only the pipeline's rate during the system warm-up (bench.warmup-seconds)
 * @param measure      how long each closed-loop measurement counts (bench.seconds)
 * @param backlog      outbox rows the relay drains, and messages the broker ceiling publishes (bench.backlog)
 * @param rate         end-to-end arrival rate in orders per second (bench.rate)
 * @param endToEnd     how long orders arrive at that rate, counted (bench.e2e-seconds)
 * @param e2eWarmup    arrivals at that rate before, not counted (bench.e2e-warmup-seconds)
 * @param replays      replayed requests, at the arrival rate asked for (bench.replays)
 */
record BenchSettings(Duration systemWarmup, int connections, Duration warmup, Duration measure, int backlog,
        double rate, Duration endToEnd, Duration e2eWarmup, int replays) {

    static BenchSettings fromSystemProperties() {
        return new BenchSettings(seconds("bench.system-warmup-seconds", 60), integer("bench.connections", 8),
                seconds("bench.warmup-seconds", 20),
                seconds("bench.seconds", 10), integer("bench.backlog", 20_000),
                Double.parseDouble(System.getProperty("bench.rate", "100")), seconds("bench.e2e-seconds", 60),
                seconds("bench.e2e-warmup-seconds", 10), integer("bench.replays", 1_000));
    }

    private static int integer(String property, int otherwise) {
        String value = System.getProperty(property, "");
        return value.isBlank() ? otherwise : Integer.parseInt(value.trim());
    }

    private static Duration seconds(String property, int otherwise) {
        return Duration.ofSeconds(integer(property, otherwise));
    }
}
