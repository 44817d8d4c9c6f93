package com.example.paymentsimulator.web;

import com.example.paymentsimulator.Refund;

import io.swagger.v3.oas.annotations.media.Schema;

/** A refund as the provider's API shows it: always of the whole charge. */
@Schema(name = "Refund", example = """
        {"refund_id": "re_0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a", "charge_id": "ch_6f1c2a9e0b7d4e58a3c1f0e2d4b6a8c0",
         "amount_cents": 2599}""")
record RefundResponse(String refundId, String chargeId, long amountCents) {

    static RefundResponse of(Refund refund) {
        return new RefundResponse(refund.refundId(), refund.chargeId(), refund.amountCents());
    }
}
