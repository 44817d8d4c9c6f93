package com.example.paymentsimulator;

import java.time.Instant;

/**
 * A charge in the ledger.
 *
 * @param requestHash SHA-256 of the request that made it (see {@link Charges#requestHash}): a later request with
 *                    the same idempotency key is a replay only when its hash is the same
 * @param createdAt   null until the ledger has stored it
 */
public record Charge(String chargeId, String idempotencyKey, String requestHash, long amountCents, String reference,
        ChargeStatus status, Instant createdAt) {
}
