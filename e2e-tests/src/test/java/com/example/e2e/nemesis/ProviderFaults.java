package com.example.e2e.nemesis;

/**
 * The payment simulator's fault knobs ({@code PUT /faults}, docs/contract.md): each request to its {@code /charges*}
 * API waits {@code latencyMs}, then is answered 503 before anything is done ({@code errorBeforePercent}), or is
 * carried out and committed with its answer withheld ({@code timeoutAfterChargePercent}: the unknown outcome); a new
 * charge is declined with {@code declinePercent}.
 */
public record ProviderFaults(int latencyMs, int errorBeforePercent, int timeoutAfterChargePercent, int declinePercent) {

    public static final ProviderFaults NONE = new ProviderFaults(0, 0, 0, 0);

    String json() {
        return "{\"latency_ms\": " + latencyMs + ", \"error_before_percent\": " + errorBeforePercent
                + ", \"timeout_after_charge_percent\": " + timeoutAfterChargePercent + ", \"decline_percent\": "
                + declinePercent + "}";
    }

    @Override
    public String toString() {
        return latencyMs + " ms latency, " + errorBeforePercent + "% errors, " + timeoutAfterChargePercent
                + "% withheld answers, " + declinePercent + "% declines";
    }
}
