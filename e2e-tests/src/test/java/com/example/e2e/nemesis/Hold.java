package com.example.e2e.nemesis;

import java.time.Duration;

import org.awaitility.Awaitility;

/** Keeps a fault in place for a while: the window in which the rest of the system has to cope. */
final class Hold {

    private Hold() {
    }

    static void forAtLeast(Duration window) {
        Awaitility.await("fault window of " + window).pollDelay(window).atMost(window.plusSeconds(5)).until(() -> true);
    }
}
