package com.example.paymentsimulator.web;

import com.example.paymentsimulator.Faults;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/** Body of {@code PUT /faults}: the knobs to set; one left out is 0 (off). */
@Schema(name = "FaultSettings", example = """
        {"latency_ms": 200, "error_before_percent": 10, "timeout_after_charge_percent": 10, "decline_percent": 0}""")
record FaultsRequest(
        @Schema(description = "Every /charges request waits this long first", defaultValue = "0")
        @Min(0) @Max(Faults.MAX_LATENCY_MS) Integer latencyMs,
        @Schema(description = "The share of /charges requests answered 503 before anything is done", defaultValue = "0")
        @Min(0) @Max(100) Integer errorBeforePercent,
        @Schema(description = "The share of charges and refunds made whose caller never gets an answer: held past "
                + "its timeout, then the connection is dropped", defaultValue = "0")
        @Min(0) @Max(100) Integer timeoutAfterChargePercent,
        @Schema(description = "The share of new charges declined whatever their amount", defaultValue = "0")
        @Min(0) @Max(100) Integer declinePercent) {

    Faults faults() {
        return new Faults(orZero(latencyMs), orZero(errorBeforePercent), orZero(timeoutAfterChargePercent),
                orZero(declinePercent));
    }

    private static int orZero(Integer value) {
        return value == null ? 0 : value;
    }
}
