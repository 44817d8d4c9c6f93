package com.example.e2e.workload;

import java.time.Duration;
import java.time.Instant;

/**
 * One HTTP request of an intent.
 *
 * @param status   the HTTP status, or 0 when there was no response
 * @param failure  TIMEOUT or CONNECTION for a request without a response, null otherwise
 * @param replayed the response carried {@code Idempotent-Replayed: true}
 * @param orderId  the order id of a 200/201 response, 0 otherwise
 * @param target   the order-service instance it was sent to
 */
public record Attempt(Instant startedAt, Duration took, int status, Failure failure, boolean replayed, long orderId,
        String target) {

    /** Why there was no response. */
    public enum Failure {
        TIMEOUT, CONNECTION
    }

    public boolean acked() {
        return status == 200 || status == 201;
    }

    /** Worth retrying with the same key: no answer, 5xx, 408 or 429. */
    public boolean retryable() {
        return status == 0 || status >= 500 || status == 408 || status == 429;
    }

    @Override
    public String toString() {
        return startedAt + " -> " + target + ": " + (failure != null ? failure.toString() : status + (replayed ? " (replayed)" : ""))
                + (orderId > 0 ? " order " + orderId : "") + " in " + took.toMillis() + " ms";
    }
}
