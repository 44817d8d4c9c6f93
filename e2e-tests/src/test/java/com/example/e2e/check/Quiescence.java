package com.example.e2e.check;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits until nothing moves: no unsent outbox row (parked ones do not move and are the checker's
 * business), no order waiting for a step, no message ready or unacknowledged outside the dead-letter
 * queues. The broker's statistics lag a little, so quiet must be seen several times in a row.
 */
public final class Quiescence {

    private static final Logger log = LoggerFactory.getLogger(Quiescence.class);
    private static final int QUIET_LOOKS_IN_A_ROW = 3;

    private final StateReader reader;

    public Quiescence(StateReader reader) {
        this.reader = reader;
    }

    public Quiet await(Duration timeout) {
        long started = System.nanoTime();
        AtomicReference<String> last = new AtomicReference<>("(not looked yet)");
        AtomicInteger quietLooks = new AtomicInteger();
        try {
            Awaitility.await("the system to go quiet").atMost(timeout).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(700)).until(() -> {
                        String pending = reader.pending();
                        if (!pending.equals(last.getAndSet(pending))) {
                            log.debug("Not quiet after {} ms: {}", (System.nanoTime() - started) / 1_000_000,
                                    pending.isEmpty() ? "nothing pending" : pending);
                        }
                        return pending.isEmpty() ? quietLooks.incrementAndGet() >= QUIET_LOOKS_IN_A_ROW
                                : quietLooks.getAndSet(0) < 0;
                    });
            return new Quiet(true, Duration.ofNanos(System.nanoTime() - started), "");
        } catch (ConditionTimeoutException e) {
            return new Quiet(false, Duration.ofNanos(System.nanoTime() - started), last.get());
        }
    }
}
