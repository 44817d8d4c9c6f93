package com.example.messaging.inbox;

import com.example.service.faults.CrashPoint;

/** The inbox's crash points (docs/contract.md, "Crash points"), declared by {@link InboxAutoConfiguration}. */
final class ConsumerCrashPoints {

    static final CrashPoint BEFORE_COMMIT = new CrashPoint("consumer.before-commit",
            "any consumer, after the effect is written, before commit");
    static final CrashPoint AFTER_COMMIT_BEFORE_ACK = new CrashPoint("consumer.after-commit-before-ack",
            "any consumer, after commit, before the message is acknowledged");

    private ConsumerCrashPoints() {
    }
}
