package com.example.paymentsimulator;

/**
 * The fault knobs (docs/contract.md, "payment-simulator"), all off by default.
 *
 * @param latencyMs                 every {@code /charges*} request waits this long first
 * @param errorBeforePercent        the share of {@code /charges*} requests answered 503 before anything is done
 * @param timeoutAfterChargePercent the share of charges and refunds made (or replayed) whose caller gets no answer:
 *                                  the unknown outcome
 * @param declinePercent            the share of new charges declined whatever their amount
 */
public record Faults(int latencyMs, int errorBeforePercent, int timeoutAfterChargePercent, int declinePercent) {

    public static final int MAX_LATENCY_MS = 60_000;
    public static final Faults NONE = new Faults(0, 0, 0, 0);

    public Faults {
        if (latencyMs < 0 || latencyMs > MAX_LATENCY_MS) {
            throw new IllegalArgumentException("latency_ms must be between 0 and " + MAX_LATENCY_MS);
        }
        for (int percent : new int[] { errorBeforePercent, timeoutAfterChargePercent, declinePercent }) {
            if (percent < 0 || percent > 100) {
                throw new IllegalArgumentException("a percentage must be between 0 and 100, was " + percent);
            }
        }
    }
}
