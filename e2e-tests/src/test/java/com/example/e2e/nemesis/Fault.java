package com.example.e2e.nemesis;

import java.time.Duration;
import java.time.Instant;

/**
 * One injected fault and the proof that it happened (exit code of a killed or crashed process, the
 * process state of a paused one). A fault whose proof is missing did not bite: {@code bit} is false.
 *
 * @param target the node it hit, e.g. {@code inventory-service-1}, {@code rabbitmq}, {@code postgres}
 * @param detail e.g. the crash point, or how long the broker was down
 */
public record Fault(FaultKind kind, String target, String detail, Instant at, Duration lasted, boolean bit,
        String proof) {

    @Override
    public String toString() {
        return kind + " " + target + (detail.isEmpty() ? "" : " [" + detail + "]") + " at " + at + " for "
                + lasted.toMillis() + " ms: " + (bit ? "" : "DID NOT BITE: ") + proof;
    }
}
