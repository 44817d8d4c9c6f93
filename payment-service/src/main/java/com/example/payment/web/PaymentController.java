package com.example.payment.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.payment.Payments;
import com.example.service.web.ApiProblem;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import reactor.core.publisher.Mono;

/** For operators (scope admin, the default for every path no AccessRules bean opens). */
@RestController
@RequestMapping(path = "/payments", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "payments", description = "Where each order's payment stands at the payment provider")
class PaymentController {

    private final Payments payments;

    PaymentController(Payments payments) {
        this.payments = payments;
    }

    @Operation(operationId = "getPayment", summary = "Get an order's payment")
    @ApiResponse(responseCode = "200", description = "The order's payment")
    @ApiResponse(responseCode = "404", description = "No payment has been asked for or cancelled for the order")
    @GetMapping("/{order_id}")
    Mono<PaymentResponse> get(@PathVariable("order_id") long orderId) {
        return payments.find(orderId).map(PaymentResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("order " + orderId + " has no payment")));
    }
}
