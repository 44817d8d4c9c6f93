package com.example.payment;

import java.time.Duration;

import org.springframework.stereotype.Component;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * Wakes the payment worker before its next poll: when a payment was just asked for, or a charged payment's refund
 * is due at once. Best effort: a wake-up that cannot be delivered is dropped, and the next poll does the same job.
 */
@Component
public class WorkerWakeUps {

    /** How long a wake-up waits for a concurrent one to get out of the way. */
    private static final Duration PATIENCE = Duration.ofMillis(100);

    private final Sinks.Many<Boolean> wakeUps = Sinks.many().multicast().directBestEffort();

    public void wake() {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (wakeUps.tryEmitNext(Boolean.TRUE) == Sinks.EmitResult.FAIL_NON_SERIALIZED
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    Flux<Boolean> asFlux() {
        return wakeUps.asFlux();
    }
}
