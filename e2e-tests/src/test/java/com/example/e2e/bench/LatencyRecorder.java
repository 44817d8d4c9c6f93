package com.example.e2e.bench;

import java.util.Arrays;

/** Durations in nanoseconds, added from any thread. */
final class LatencyRecorder {

    private long[] values = new long[4096];
    private int size;

    synchronized void add(long nanos) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = nanos;
    }

    synchronized long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
