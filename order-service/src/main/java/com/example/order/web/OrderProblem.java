package com.example.order.web;

import org.springframework.http.HttpStatus;

import com.example.service.web.ProblemType;

/** The errors of the orders API beside the standard ones (docs/contract.md, "POST /orders"). */
final class OrderProblem {

    static final ProblemType IDEMPOTENCY_KEY_REUSED = new ProblemType("idempotency-key-reused",
            HttpStatus.UNPROCESSABLE_CONTENT, "Idempotency key reused with a different request", false);

    static final ProblemType ORDER_FINAL = new ProblemType("order-final", HttpStatus.CONFLICT,
            "The order is final and cannot be cancelled", false);

    private OrderProblem() {
    }
}
