package com.example.e2e.nemesis;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.awaitility.Awaitility;

/** Keeps a fault in place for a while: the window in which the rest of the system has to cope. */
final class Hold {

    private Hold() {
    }

    static void forAtLeast(Duration window) {
        Awaitility.await("fault window of " + window).pollDelay(window).atMost(window.plusSeconds(5)).until(() -> true);
    }

    /** Polls {@code count} until it is positive or {@code patience} ran out, and returns its last value. */
    static long until(LongSupplier count, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        long value = count.getAsLong();
        while (value <= 0 && System.nanoTime() < deadline) {
            Awaitility.await().pollDelay(Duration.ofMillis(200)).atMost(Duration.ofSeconds(1)).until(() -> true);
            value = count.getAsLong();
        }
        return value;
    }
}
