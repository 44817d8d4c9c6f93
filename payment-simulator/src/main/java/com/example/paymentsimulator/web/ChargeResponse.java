package com.example.paymentsimulator.web;

import com.example.paymentsimulator.Charge;

import io.swagger.v3.oas.annotations.media.Schema;

/** A charge as the provider's API shows it. */
@Schema(name = "Charge", example = """
        {"charge_id": "ch_6f1c2a9e0b7d4e58a3c1f0e2d4b6a8c0", "status": "succeeded", "amount_cents": 2599,
         "reference": "payment-123"}""")
record ChargeResponse(String chargeId,
        @Schema(allowableValues = { "succeeded", "declined" }) String status, long amountCents, String reference) {

    static ChargeResponse of(Charge charge) {
        return new ChargeResponse(charge.chargeId(), charge.status().wire(), charge.amountCents(), charge.reference());
    }
}
