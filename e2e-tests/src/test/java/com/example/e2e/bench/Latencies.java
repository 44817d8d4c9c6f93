package com.example.e2e.bench;

import java.util.Arrays;

/**
 * Percentiles of a set of durations, in milliseconds (nearest-rank: p99 is a value that was measured,
 * never an interpolation between two).
 */
public record Latencies(int count, double p50, double p95, double p99, double max) {

    public static final Latencies NONE = new Latencies(0, 0, 0, 0, 0);

    /** @param nanos durations in nanoseconds, in any order */
    public static Latencies ofNanos(long[] nanos) {
        if (nanos.length == 0) {
            return NONE;
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return new Latencies(sorted.length, millis(rank(sorted, 50)), millis(rank(sorted, 95)),
                millis(rank(sorted, 99)), millis(sorted[sorted.length - 1]));
    }

    private static long rank(long[] sorted, int percentile) {
        int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }
}
