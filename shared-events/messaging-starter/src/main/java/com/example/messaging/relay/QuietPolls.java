package com.example.messaging.relay;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Whether the relay's next poll has anything to look for. A poll is skipped while the LISTEN connection is up (every
 * commit that writes a row wakes the relay), the last cycle found no row due, and backlog figures asked for after the
 * last cycle that found rows (or failed) saw no row waiting, so none is backing off either. A row written without
 * anyone being told (another instance's batch rolled back, a LISTEN connection that died without closing) shows in
 * the next figures, {@code stats-interval} later at most, and the polls resume. Even so the relay polls every
 * {@code listener.quiet-poll}. An idle service then costs its database one transaction per {@code stats-interval}
 * instead of one per {@code poll-interval}.
 */
final class QuietPolls {

    private final BooleanSupplier listening;
    private final OutboxMonitor monitor;
    private final long quietPollNanos;
    private final LongSupplier nanoTime;
    private volatile long lastCycleNanos;
    private volatile long lastBusyNanos;
    private volatile boolean lastCycleFoundRows = true;

    QuietPolls(BooleanSupplier listening, OutboxMonitor monitor, Duration quietPoll, LongSupplier nanoTime) {
        this.listening = listening;
        this.monitor = monitor;
        this.quietPollNanos = quietPoll.toNanos();
        this.nanoTime = nanoTime;
        this.lastCycleNanos = nanoTime.getAsLong();
        this.lastBusyNanos = lastCycleNanos;
    }

    /** @param busy the cycle claimed rows, or failed */
    void cycleEnded(boolean busy) {
        long now = nanoTime.getAsLong();
        lastCycleNanos = now;
        lastCycleFoundRows = busy;
        if (busy) {
            lastBusyNanos = now;
        }
    }

    boolean skip() {
        return listening.getAsBoolean()
                && !lastCycleFoundRows
                && monitor.nothingPendingSince(lastBusyNanos)
                && nanoTime.getAsLong() - lastCycleNanos < quietPollNanos;
    }
}
