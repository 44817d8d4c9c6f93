package com.example.inventory.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.inventory.Inventory;
import com.example.service.web.ApiProblem;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import reactor.core.publisher.Mono;

@RestController
@RequestMapping(path = "/reservations", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "reservations", description = "What inventory reserved for each order")
class ReservationController {

    private final Inventory inventory;

    ReservationController(Inventory inventory) {
        this.inventory = inventory;
    }

    @Operation(operationId = "getReservation", summary = "Get an order's reservation")
    @ApiResponse(responseCode = "200", description = "The order's reservation")
    @ApiResponse(responseCode = "404", description = "No reservation for the order yet")
    @GetMapping("/{order_id}")
    Mono<ReservationResponse> get(@PathVariable("order_id") long orderId) {
        return inventory.reservation(orderId).map(ReservationResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("no reservation for order " + orderId + " yet")));
    }
}
