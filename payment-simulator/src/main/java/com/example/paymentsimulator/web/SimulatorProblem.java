package com.example.paymentsimulator.web;

import org.springframework.http.HttpStatus;

import com.example.service.web.ProblemType;

/** The simulator's errors beside the standard ones (docs/contract.md, "payment-simulator"). */
final class SimulatorProblem {

    static final ProblemType IDEMPOTENCY_KEY_REUSED = new ProblemType("idempotency-key-reused",
            HttpStatus.UNPROCESSABLE_CONTENT, "Idempotency key reused with a different request", false);
    static final ProblemType ALREADY_REFUNDED = new ProblemType("already-refunded", HttpStatus.CONFLICT,
            "Charge already refunded", false);
    static final ProblemType CHARGE_DECLINED = new ProblemType("charge-declined", HttpStatus.CONFLICT,
            "A declined charge cannot be refunded", false);
    /** An injected failure ({@code error_before_percent}), told apart from a real outage by its type. */
    static final ProblemType INJECTED_FAILURE = new ProblemType("injected-failure", HttpStatus.SERVICE_UNAVAILABLE,
            "Provider failure (injected)", true);

    private SimulatorProblem() {
    }
}
