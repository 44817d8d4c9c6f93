package com.example.payment;

import java.time.Duration;

import org.springframework.stereotype.Component;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Wakes the payment worker before its next poll: when a payment was just asked for, when a charged payment's refund
 * is due at once, and when a payment this instance left for later (its outcome unknown) is due again. Best effort: a
 * wake-up that cannot be delivered, or that the instance does not live to deliver, is dropped, and the next poll
 * does the same job.
 */
@Component
public class WorkerWakeUps {

    /** How long a wake-up waits for a concurrent one to get out of the way. */
    private static final Duration PATIENCE = Duration.ofMillis(100);
    /** Added to a timed wake-up's delay, so that the work it is for is due when it comes. */
    private static final Duration CLOCK_MARGIN = Duration.ofMillis(50);

    private final Sinks.Many<Boolean> wakeUps = Sinks.many().multicast().directBestEffort();

    public void wake() {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (wakeUps.tryEmitNext(Boolean.TRUE) == Sinks.EmitResult.FAIL_NON_SERIALIZED
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    /**
     * Wakes the worker once {@code delay} has passed (on Reactor's parallel scheduler). A little late rather than
     * early: the work it is for becomes due by the database's clock.
     */
    public void wakeIn(Duration delay) {
        Mono.delay(delay.plus(CLOCK_MARGIN)).subscribe(tick -> wake());
    }

    Flux<Boolean> asFlux() {
        return wakeUps.asFlux();
    }
}
