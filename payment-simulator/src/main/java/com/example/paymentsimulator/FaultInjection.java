package com.example.paymentsimulator;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The faults in force, changed at run time through {@code PUT /faults} and kept in memory only: a restarted simulator
 * behaves. Each request draws its own dice, so a percentage is a rate over many requests, not a schedule. What the
 * dice did is counted since the start ({@link #injected()}): a test's proof that its faults were dealt.
 */
@Component
public class FaultInjection {

    private static final Logger log = LoggerFactory.getLogger(FaultInjection.class);

    private final AtomicReference<Faults> current = new AtomicReference<>(Faults.NONE);
    private final RandomGenerator dice;
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong withheld = new AtomicLong();
    private final AtomicLong declines = new AtomicLong();

    /** How many faults the dice dealt since the start, by kind. */
    public record Injected(long errors, long withheldAnswers, long declines) {
    }

    FaultInjection(RandomGenerator dice) {
        this.dice = dice;
    }

    public Faults current() {
        return current.get();
    }

    public void set(Faults faults) {
        Faults before = current.getAndSet(faults);
        if (!faults.equals(before)) {
            if (faults.equals(Faults.NONE)) {
                log.warn("Fault injection is off again");
            } else {
                log.warn("FAULT INJECTION IS ON: {}", faults);
            }
        }
    }

    public boolean errorBefore() {
        return draw(current.get().errorBeforePercent(), errors);
    }

    public boolean timeoutAfterCharge() {
        return draw(current.get().timeoutAfterChargePercent(), withheld);
    }

    public boolean decline() {
        return draw(current.get().declinePercent(), declines);
    }

    public Injected injected() {
        return new Injected(errors.get(), withheld.get(), declines.get());
    }

    private boolean draw(int percent, AtomicLong dealt) {
        boolean hit = percent > 0 && dice.nextInt(100) < percent;
        if (hit) {
            dealt.incrementAndGet();
        }
        return hit;
    }
}
