package com.example.paymentsimulator.web;

import java.time.Instant;
import java.util.List;

import com.example.paymentsimulator.Charge;
import com.example.paymentsimulator.Refund;

import io.swagger.v3.oas.annotations.media.Schema;

/** Everything the simulator ever did, oldest first, for the checkers. */
@Schema(name = "Ledger")
record LedgerResponse(List<LedgerCharge> charges, List<LedgerRefund> refunds) {

    @Schema(name = "LedgerCharge")
    record LedgerCharge(String chargeId, @Schema(allowableValues = { "succeeded", "declined" }) String status,
            long amountCents, String reference, String idempotencyKey, Instant createdAt) {

        static LedgerCharge of(Charge charge) {
            return new LedgerCharge(charge.chargeId(), charge.status().wire(), charge.amountCents(),
                    charge.reference(), charge.idempotencyKey(), charge.createdAt());
        }
    }

    @Schema(name = "LedgerRefund")
    record LedgerRefund(String refundId, String chargeId, long amountCents, String idempotencyKey,
            Instant createdAt) {

        static LedgerRefund of(Refund refund) {
            return new LedgerRefund(refund.refundId(), refund.chargeId(), refund.amountCents(),
                    refund.idempotencyKey(), refund.createdAt());
        }
    }
}
