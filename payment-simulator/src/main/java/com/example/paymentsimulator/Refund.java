package com.example.paymentsimulator;

import java.time.Instant;

/** A refund in the ledger: always of a whole succeeded charge, at most one per charge. */
public record Refund(String refundId, String chargeId, String idempotencyKey, long amountCents, Instant createdAt) {
}
