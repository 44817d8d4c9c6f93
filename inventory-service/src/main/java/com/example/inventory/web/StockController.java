package com.example.inventory.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.service.web.ApiProblem;
import com.example.inventory.Inventory;

import jakarta.validation.Valid;
import reactor.core.publisher.Mono;

@RestController
@RequestMapping(path = "/stock", produces = MediaType.APPLICATION_JSON_VALUE)
class StockController {

    private final Inventory inventory;

    StockController(Inventory inventory) {
        this.inventory = inventory;
    }

    /** Sets the units available to reserve (for operators, demos and tests); reserved units stay. */
    @PutMapping(path = "/{skuId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<StockResponse> set(@PathVariable long skuId, @Valid @RequestBody SetStockRequest request) {
        return inventory.setAvailable(positive(skuId), request.available()).map(StockResponse::of);
    }

    @GetMapping("/{skuId}")
    Mono<StockResponse> get(@PathVariable long skuId) {
        return inventory.stock(positive(skuId)).map(StockResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("sku " + skuId + " has no stock record")));
    }

    private static long positive(long skuId) {
        if (skuId <= 0) {
            throw ApiProblem.invalid("sku_id", "must be greater than 0");
        }
        return skuId;
    }
}
