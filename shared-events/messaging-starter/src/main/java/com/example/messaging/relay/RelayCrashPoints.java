package com.example.messaging.relay;

import com.example.service.faults.CrashPoint;

/** The relay's crash points (docs/contract.md, "Crash points"), declared by {@link RelayAutoConfiguration}. */
final class RelayCrashPoints {

    static final CrashPoint BEFORE_PUBLISH = new CrashPoint("relay.before-publish",
            "any relay, after claiming rows, before publishing");
    static final CrashPoint AFTER_PUBLISH_BEFORE_MARK = new CrashPoint("relay.after-publish-before-mark",
            "any relay, after the broker confirmed, before marking the rows sent");

    private RelayCrashPoints() {
    }
}
