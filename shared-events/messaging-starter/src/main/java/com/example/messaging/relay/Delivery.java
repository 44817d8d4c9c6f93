package com.example.messaging.relay;

import java.time.Instant;

/** What became of one published row: confirmed (acked and not returned) at a time, or failed. */
record Delivery(OutboxRow row, Instant confirmedAt, DeliveryFailure failure) {

    static Delivery confirmed(OutboxRow row, Instant at) {
        return new Delivery(row, at, null);
    }

    static Delivery failed(OutboxRow row, DeliveryFailure.Kind kind, String reason) {
        return new Delivery(row, null, new DeliveryFailure(kind, reason));
    }

    boolean isConfirmed() {
        return failure == null;
    }
}
