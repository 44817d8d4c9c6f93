package com.example.e2e.nemesis;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/** Keeps a fault in place for a while: the window in which the rest of the system has to cope. */
final class Hold {

    private Hold() {
    }

    static void forAtLeast(Duration window) {
        Awaitility.await("fault window of " + window).pollDelay(window).atMost(window.plusSeconds(5)).until(() -> true);
    }

    /** Polls {@code count} until it is positive or {@code patience} ran out, and returns its last value. */
    static long until(LongSupplier count, Duration patience) {
        try {
            return Awaitility.await("a positive count").pollInterval(Duration.ofMillis(200)).atMost(patience)
                    .until(count::getAsLong, value -> value > 0);
        } catch (ConditionTimeoutException e) {
            return count.getAsLong();
        }
    }
}
