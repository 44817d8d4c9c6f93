package com.example.events.relay;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter, capped: how long a row waits after its n-th failed delivery.
 * The jitter only shortens the delay, so the cap is a real upper bound.
 */
final class RetryBackoff {

    private final long initialMillis;
    private final double multiplier;
    private final long maxMillis;
    private final double jitter;
    private final DoubleSupplier random;

    RetryBackoff(RelayProperties.Backoff settings) {
        this(settings, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** @param random values in [0, 1) */
    RetryBackoff(RelayProperties.Backoff settings, DoubleSupplier random) {
        this.initialMillis = settings.initial().toMillis();
        this.multiplier = settings.multiplier();
        this.maxMillis = settings.max().toMillis();
        this.jitter = settings.jitter();
        this.random = random;
    }

    /** @param failures how many deliveries of the row have failed so far, including the one just now (>= 1) */
    Duration delayAfter(int failures) {
        if (failures < 1) {
            throw new IllegalArgumentException("failures must be at least 1, was " + failures);
        }
        // In double arithmetic the power saturates at infinity instead of overflowing, and min() caps it.
        double uncapped = initialMillis * Math.pow(multiplier, failures - 1);
        double capped = Math.min(uncapped, maxMillis);
        double jittered = capped * (1.0 - jitter * random.getAsDouble());
        return Duration.ofMillis(Math.max(1, Math.round(jittered)));
    }
}
