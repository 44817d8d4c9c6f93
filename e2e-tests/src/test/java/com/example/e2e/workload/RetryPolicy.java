package com.example.e2e.workload;

import java.time.Duration;

/**
 * How long a client keeps retrying one intent: short timeouts per request, exponential backoff between
 * attempts, and a bound on both the number of attempts and the total time. The bound must outlast a
 * service restart, or most intents caught by a kill end UNKNOWN instead of ACKED.
 */
public record RetryPolicy(Duration requestTimeout, Duration initialBackoff, Duration maxBackoff, int maxAttempts,
        Duration deadline) {

    public static RetryPolicy standard() {
        return new RetryPolicy(Duration.ofSeconds(3), Duration.ofMillis(100), Duration.ofSeconds(2), 40,
                Duration.ofSeconds(60));
    }

    Duration backoff(int failedAttempts) {
        long millis = initialBackoff.toMillis() << Math.min(failedAttempts - 1, 16);
        return Duration.ofMillis(Math.min(millis, maxBackoff.toMillis()));
    }
}
