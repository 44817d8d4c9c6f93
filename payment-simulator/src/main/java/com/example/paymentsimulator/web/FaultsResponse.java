package com.example.paymentsimulator.web;

import com.example.paymentsimulator.Faults;

import io.swagger.v3.oas.annotations.media.Schema;

/** The faults in force. */
@Schema(name = "Faults")
record FaultsResponse(int latencyMs, int errorBeforePercent, int timeoutAfterChargePercent, int declinePercent) {

    static FaultsResponse of(Faults faults) {
        return new FaultsResponse(faults.latencyMs(), faults.errorBeforePercent(), faults.timeoutAfterChargePercent(),
                faults.declinePercent());
    }
}
