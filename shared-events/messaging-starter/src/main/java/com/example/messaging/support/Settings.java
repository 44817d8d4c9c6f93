package com.example.messaging.support;

import java.time.Duration;

/** The checks the messaging settings make when they are bound, so a bad value stops the start with its name. */
public final class Settings {

    private Settings() {
    }

    public static void requirePositive(Duration value, String name) {
        require(value != null && !value.isNegative() && !value.isZero(), name + " must be a positive duration");
    }

    public static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
