package com.example.paymentsimulator.web;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** Body of {@code POST /charges}. */
@Schema(name = "ChargeRequest")
record ChargeRequest(
        @Schema(description = "What to charge, in cents; more than simulator.decline-above-cents is always declined")
        @NotNull @Min(1) @Max(MAX_AMOUNT_CENTS) Long amountCents,
        @Schema(description = "The caller's own reference for the charge, e.g. its payment id")
        @NotNull @Size(min = 1, max = 200) String reference) {

    static final long MAX_AMOUNT_CENTS = 1_000_000_000_000L;
}
