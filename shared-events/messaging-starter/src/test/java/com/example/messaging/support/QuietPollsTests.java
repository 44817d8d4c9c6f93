package com.example.messaging.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * When a poller may skip a poll, on a clock the test moves, with figures kept as the relay's and the payment worker's
 * monitors keep theirs: asked for at a moment, saying how much work waited then.
 */
class QuietPollsTests {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicLong pending = new AtomicLong();
    private final AtomicBoolean told = new AtomicBoolean(true);
    private final Figures figures = new Figures();
    private final QuietPolls polls = new QuietPolls(told::get, figures::nothingWaitingSince,
            Duration.ofSeconds(10), now::get);

    @Test
    void anIdlePollerThatIsToldOfNewWorkSkipsPollsOnceFiguresTakenAfterItsLastBusyCycleSeeNothingWaiting() {
        assertThat(polls.skip()).as("nothing known yet").isFalse();
        later(1);
        polls.cycleEnded(false);
        assertThat(polls.skip()).as("no figures yet").isFalse();
        later(1);
        refresh();
        assertThat(polls.skip()).isTrue();
    }

    @Test
    void figuresAskedForBeforeTheLastCycleThatFoundRowsDoNotCount() {
        later(1);
        refresh();
        later(1);
        polls.cycleEnded(true);
        later(1);
        polls.cycleEnded(false);
        assertThat(polls.skip()).as("a row it found may have failed and be backing off").isFalse();
        later(1);
        refresh();
        assertThat(polls.skip()).isTrue();
    }

    @Test
    void workWaitingInTheFiguresAFailedCycleOrNotBeingToldMeanPolling() {
        quietNow();
        pending.set(1);
        later(1);
        refresh();
        assertThat(polls.skip()).as("a row waits (backing off, or nobody was told)").isFalse();

        pending.set(0);
        quietNow();
        polls.cycleEnded(true);
        assertThat(polls.skip()).as("a failed cycle").isFalse();

        quietNow();
        told.set(false);
        assertThat(polls.skip()).as("notifications are not arriving").isFalse();
    }

    @Test
    void evenAQuietPollerPollsEveryQuietPollInterval() {
        quietNow();
        later(8);
        assertThat(polls.skip()).as("9 s after the last cycle").isTrue();
        later(1);
        assertThat(polls.skip()).isFalse();
        polls.cycleEnded(false);
        assertThat(polls.skip()).isTrue();
    }

    private void quietNow() {
        later(1);
        polls.cycleEnded(false);
        later(1);
        refresh();
        assertThat(polls.skip()).isTrue();
    }

    private void refresh() {
        figures.refresh();
    }

    private void later(long seconds) {
        now.addAndGet(Duration.ofSeconds(seconds).toNanos());
    }

    private final class Figures {

        private Long askedAt;
        private long waiting;

        void refresh() {
            askedAt = now.get();
            waiting = pending.get();
        }

        boolean nothingWaitingSince(long sinceNanos) {
            return askedAt != null && askedAt - sinceNanos > 0 && waiting == 0;
        }
    }
}
