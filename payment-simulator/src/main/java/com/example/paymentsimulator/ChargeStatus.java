package com.example.paymentsimulator;

import java.util.Arrays;

/** How a charge ended; decided once, when it is made, and stored. */
public enum ChargeStatus {

    SUCCEEDED("succeeded"), DECLINED("declined");

    private final String wire;

    ChargeStatus(String wire) {
        this.wire = wire;
    }

    /** The name in the API and in the ledger's table. */
    public String wire() {
        return wire;
    }

    public static ChargeStatus ofWire(String wire) {
        return Arrays.stream(values()).filter(status -> status.wire.equals(wire)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown charge status " + wire));
    }
}
