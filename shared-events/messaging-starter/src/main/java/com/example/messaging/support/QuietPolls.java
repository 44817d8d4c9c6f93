package com.example.messaging.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;

/**
 * Whether a poller's next poll has anything to look for: the outbox relay's, whose commits wake it, and
 * payment-service's worker, whose payments asked for wake it. A poll is skipped while new work reaches the poller
 * without one ({@code told}: the relay's LISTEN connection is up, the worker has nothing in hand), the last look for
 * work (polled or woken) found nothing and did not fail, and figures asked for after the last look that found
 * something (or failed) saw nothing waiting, so nothing is backing off either. Work nobody was told of (another
 * instance's batch rolled back, an instance that crashed with work leased, a LISTEN connection that died without
 * closing) shows in the next figures, refreshed every few seconds, and the polls resume. Even so the poller polls at
 * least every {@code quietPoll}. An idle service then costs its database one query per refresh of the figures instead
 * of one per poll.
 */
public final class QuietPolls {

    private final BooleanSupplier told;
    private final LongPredicate nothingWaitingSince;
    private final long quietPollNanos;
    private final LongSupplier nanoTime;
    private volatile long lastCycleNanos;
    private volatile long lastBusyNanos;
    private volatile boolean lastCycleBusy = true;

    /**
     * @param told                whether new work reaches the poller without a poll right now
     * @param nothingWaitingSince whether figures asked for after the given {@link System#nanoTime()} reading saw no
     *                            work waiting (every piece of work committed before that moment visible to them)
     * @param quietPoll           the longest a quiet poller goes without polling
     * @param nanoTime            the clock ({@link System#nanoTime()})
     */
    public QuietPolls(BooleanSupplier told, LongPredicate nothingWaitingSince, Duration quietPoll,
            LongSupplier nanoTime) {
        this.told = told;
        this.nothingWaitingSince = nothingWaitingSince;
        this.quietPollNanos = quietPoll.toNanos();
        this.nanoTime = nanoTime;
        this.lastCycleNanos = nanoTime.getAsLong();
        this.lastBusyNanos = lastCycleNanos;
    }

    /** After every look for work, polled or woken. @param busy it found work, or failed */
    public void cycleEnded(boolean busy) {
        long now = nanoTime.getAsLong();
        lastCycleNanos = now;
        lastCycleBusy = busy;
        if (busy) {
            lastBusyNanos = now;
        }
    }

    public boolean skip() {
        return told.getAsBoolean()
                && !lastCycleBusy
                && nothingWaitingSince.test(lastBusyNanos)
                && nanoTime.getAsLong() - lastCycleNanos < quietPollNanos;
    }
}
