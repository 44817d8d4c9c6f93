package com.example.events.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Random;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class RetryBackoffTests {

    private static RelayProperties.Backoff settings(double jitter) {
        return new RelayProperties.Backoff(Duration.ofMillis(500), 2.0, Duration.ofSeconds(30), jitter);
    }

    @Test
    void doublesFromTheInitialDelayUntilTheCap() {
        RetryBackoff backoff = new RetryBackoff(settings(0.0), () -> 0.5);

        assertThat(backoff.delayAfter(1)).isEqualTo(Duration.ofMillis(500));
        assertThat(backoff.delayAfter(2)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delayAfter(3)).isEqualTo(Duration.ofSeconds(2));
        assertThat(backoff.delayAfter(7)).isEqualTo(Duration.ofSeconds(30));
        assertThat(backoff.delayAfter(8)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void staysCappedForAnyNumberOfFailures() {
        RetryBackoff backoff = new RetryBackoff(settings(0.0), () -> 0.0);

        assertThat(backoff.delayAfter(64)).isEqualTo(Duration.ofSeconds(30));
        assertThat(backoff.delayAfter(Integer.MAX_VALUE)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void jitterOnlyShortensTheDelayByUpToItsFraction() {
        assertThat(new RetryBackoff(settings(0.5), () -> 0.0).delayAfter(3)).isEqualTo(Duration.ofSeconds(2));
        assertThat(new RetryBackoff(settings(0.5), () -> 0.5).delayAfter(3)).isEqualTo(Duration.ofMillis(1500));
        assertThat(new RetryBackoff(settings(0.5), () -> 0.5).delayAfter(20)).isEqualTo(Duration.ofMillis(22500));

        Random random = new Random(7);
        RetryBackoff backoff = new RetryBackoff(settings(0.5), random::nextDouble);
        for (int failures = 1; failures <= 30; failures++) {
            long uncapped = Math.min(500L << Math.min(failures - 1, 20), 30_000L);
            assertThat(backoff.delayAfter(failures).toMillis()).isBetween(uncapped / 2, uncapped);
        }
    }

    @Test
    void spreadsRowsThatFailedTogether() {
        RetryBackoff backoff = new RetryBackoff(settings(0.5));

        assertThat(IntStream.range(0, 50).mapToObj(i -> backoff.delayAfter(5)).distinct().count())
                .isGreaterThan(10);
    }

    @Test
    void refusesAFailureCountBelowOne() {
        RetryBackoff backoff = new RetryBackoff(settings(0.5));

        assertThatThrownBy(() -> backoff.delayAfter(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
