package com.example.paymentsimulator;

import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The faults in force, changed at run time through {@code PUT /faults} and kept in memory only: a restarted simulator
 * behaves. Each request draws its own dice, so a percentage is a rate over many requests, not a schedule.
 */
@Component
public class FaultInjection {

    private static final Logger log = LoggerFactory.getLogger(FaultInjection.class);

    private final AtomicReference<Faults> current = new AtomicReference<>(Faults.NONE);
    private final RandomGenerator dice;

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
        return draw(current.get().errorBeforePercent());
    }

    public boolean timeoutAfterCharge() {
        return draw(current.get().timeoutAfterChargePercent());
    }

    public boolean decline() {
        return draw(current.get().declinePercent());
    }

    private boolean draw(int percent) {
        return percent > 0 && dice.nextInt(100) < percent;
    }
}
