package com.example.messaging.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Random;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class BackoffTests {

    private static Backoff settings(double jitter) {
        return new Backoff(Duration.ofMillis(500), 2.0, Duration.ofSeconds(30), jitter);
    }

    /** One backoff with its random source fixed. */
    private interface DelaySource {
        Duration delayAfter(int failures);
    }

    @Test
    void doublesFromTheInitialDelayUntilTheCap() {
        DelaySource backoff = failures -> settings(0.0).delayAfter(failures, () -> 0.5);

        assertThat(backoff.delayAfter(1)).isEqualTo(Duration.ofMillis(500));
        assertThat(backoff.delayAfter(2)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delayAfter(3)).isEqualTo(Duration.ofSeconds(2));
        assertThat(backoff.delayAfter(7)).isEqualTo(Duration.ofSeconds(30));
        assertThat(backoff.delayAfter(8)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void staysCappedForAnyNumberOfFailures() {
        DelaySource backoff = failures -> settings(0.0).delayAfter(failures, () -> 0.0);

        assertThat(backoff.delayAfter(64)).isEqualTo(Duration.ofSeconds(30));
        assertThat(backoff.delayAfter(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void jitterOnlyShortensTheDelayByUpToItsFraction() {
        assertThat(settings(0.5).delayAfter(3, () -> 0.0)).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings(0.5).delayAfter(3, () -> 0.5)).isEqualTo(Duration.ofMillis(1500));
        assertThat(settings(0.5).delayAfter(20, () -> 0.5)).isEqualTo(Duration.ofMillis(22500));

        Random random = new Random(7);
        DelaySource backoff = failures -> settings(0.5).delayAfter(failures, random::nextDouble);
        for (int failures = 1; failures <= 30; failures++) {
            long uncapped = Math.min(500L << Math.min(failures - 1, 20), 30_000L);
            assertThat(backoff.delayAfter(failures).toMillis()).isBetween(uncapped / 2, uncapped);
        }
    }

    @Test
    void spreadsRowsThatFailedTogether() {
        Backoff backoff = settings(0.5);

        assertThat(IntStream.range(0, 50).mapToObj(i -> backoff.delayAfter(5)).distinct().count())
                .isGreaterThan(10);
    }

    @Test
    void refusesAFailureCountBelowOne() {
        Backoff backoff = settings(0.5);

        assertThatThrownBy(() -> backoff.delayAfter(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesSettingsThatCannotWork() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofMillis(10), 0.5))
                .hasMessageContaining("backoff.max must not be shorter than backoff.initial");
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, 2.0, Duration.ofSeconds(1), 0.5))
                .hasMessageContaining("backoff.initial must be a positive duration");
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(1), 0.5))
                .hasMessageContaining("backoff.multiplier");
    }
}
