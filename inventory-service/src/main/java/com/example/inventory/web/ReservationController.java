package com.example.inventory.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.service.web.ApiProblem;
import com.example.inventory.Inventory;

import reactor.core.publisher.Mono;

@RestController
@RequestMapping(path = "/reservations", produces = MediaType.APPLICATION_JSON_VALUE)
class ReservationController {

    private final Inventory inventory;

    ReservationController(Inventory inventory) {
        this.inventory = inventory;
    }

    @GetMapping("/{orderId}")
    Mono<ReservationResponse> get(@PathVariable long orderId) {
        return inventory.reservation(orderId).map(ReservationResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("no reservation for order " + orderId + " yet")));
    }
}
