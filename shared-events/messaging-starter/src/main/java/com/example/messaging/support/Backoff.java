package com.example.messaging.support;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Exponential backoff with jitter, capped: how long to wait after the n-th failure in a row,
 * {@code initial * multiplier^(n-1)}, capped at {@code max}, then shortened by a random fraction of up to
 * {@code jitter} so that work that failed together does not come back together. The jitter only shortens
 * the delay, so the cap is a real upper bound. The relay waits this long before retrying a row; the inbox
 * before retrying a transaction while the database is away.
 *
 * @param initial    the delay after the first failure
 * @param multiplier how much longer each further delay is (at least 1)
 * @param max        the longest delay
 * @param jitter     the largest fraction (0 to 1) by which a delay is shortened at random
 */
public record Backoff(
        @DefaultValue("500ms") Duration initial,
        @DefaultValue("2.0") double multiplier,
        @DefaultValue("30s") Duration max,
        @DefaultValue("0.5") double jitter) {

    public Backoff {
        Settings.requirePositive(initial, "backoff.initial");
        Settings.requirePositive(max, "backoff.max");
        Settings.require(multiplier >= 1.0, "backoff.multiplier must be at least 1");
        Settings.require(jitter >= 0.0 && jitter <= 1.0, "backoff.jitter must be between 0 and 1");
        Settings.require(max.compareTo(initial) >= 0, "backoff.max must not be shorter than backoff.initial");
    }

    /** @param failures how many attempts have failed so far, including the one just now (>= 1) */
    public Duration delayAfter(int failures) {
        return delayAfter(failures, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** @param random values in [0, 1) */
    public Duration delayAfter(int failures, DoubleSupplier random) {
        if (failures < 1) {
            throw new IllegalArgumentException("failures must be at least 1, was " + failures);
        }
        // In double arithmetic the power saturates at infinity instead of overflowing, and min() caps it.
        double uncapped = initial.toMillis() * Math.pow(multiplier, failures - 1);
        double capped = Math.min(uncapped, max.toMillis());
        double jittered = capped * (1.0 - jitter * random.getAsDouble());
        return Duration.ofMillis(Math.max(1, Math.round(jittered)));
    }
}
