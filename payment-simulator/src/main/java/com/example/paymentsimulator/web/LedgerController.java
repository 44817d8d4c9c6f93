package com.example.paymentsimulator.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.paymentsimulator.Charges;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import reactor.core.publisher.Mono;

/** Test control, without the API key: what the checkers compare the services' books with. */
@RestController
@RequestMapping(path = "/ledger", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "ledger", description = "Test control: every charge and refund the simulator ever made (no API key)")
class LedgerController {

    private final Charges charges;

    LedgerController(Charges charges) {
        this.charges = charges;
    }

    @Operation(operationId = "getLedger", summary = "Get every charge and refund ever made, oldest first",
            description = "Includes the charges and refunds whose answer was withheld (the unknown outcome).")
    @ApiResponse(responseCode = "200", description = "The whole ledger")
    @GetMapping
    Mono<LedgerResponse> get() {
        // Refunds first, then charges: a refund's charge was committed before it, so every refund listed has its
        // charge listed too, without holding one snapshot open for both reads.
        return charges.everyRefund().map(LedgerResponse.LedgerRefund::of).collectList()
                .flatMap(refunds -> charges.everyCharge().map(LedgerResponse.LedgerCharge::of).collectList()
                        .map(all -> new LedgerResponse(all, refunds)));
    }
}
