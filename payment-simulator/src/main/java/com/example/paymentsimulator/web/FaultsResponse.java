package com.example.paymentsimulator.web;

import com.example.paymentsimulator.FaultInjection;
import com.example.paymentsimulator.Faults;

import io.swagger.v3.oas.annotations.media.Schema;

/** The faults in force, and how many of each the simulator dealt since it started. */
@Schema(name = "Faults")
record FaultsResponse(int latencyMs, int errorBeforePercent, int timeoutAfterChargePercent, int declinePercent,
        @Schema(description = "Faults dealt since the simulator started (counted in memory: a restart begins at 0)")
        Injected injected) {

    @Schema(name = "InjectedFaults")
    record Injected(@Schema(description = "/charges* requests answered 503 before anything was done") long errors,
            @Schema(description = "charges and refunds made whose answer was withheld (unknown outcomes)") long withheldAnswers,
            @Schema(description = "new charges declined by decline_percent (not by their amount)") long declines) {
    }

    static FaultsResponse of(Faults faults, FaultInjection.Injected injected) {
        return new FaultsResponse(faults.latencyMs(), faults.errorBeforePercent(), faults.timeoutAfterChargePercent(),
                faults.declinePercent(), new Injected(injected.errors(), injected.withheldAnswers(), injected.declines()));
    }
}
