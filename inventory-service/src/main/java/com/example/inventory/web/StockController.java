package com.example.inventory.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.inventory.Inventory;
import com.example.service.web.ApiProblem;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import reactor.core.publisher.Mono;

@RestController
@RequestMapping(path = "/stock", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "stock", description = "Units available to reserve, per sku")
class StockController {

    private final Inventory inventory;

    StockController(Inventory inventory) {
        this.inventory = inventory;
    }

    /** Sets the units available to reserve (for operators, demos and tests); reserved units stay. */
    @Operation(operationId = "setStock", summary = "Set a sku's available units and unit price",
            description = "Creates the sku's stock record or changes its available units and, when given, its price; "
                    + "reserved units stay, and so does what reservations already made cost.")
    @ApiResponse(responseCode = "200", description = "The sku's stock now")
    @PutMapping(path = "/{sku_id}", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<StockResponse> set(@PathVariable("sku_id") long skuId, @Valid @RequestBody SetStockRequest request) {
        return inventory.setStock(positive(skuId), request.available(), request.priceCents()).map(StockResponse::of);
    }

    @Operation(operationId = "getStock", summary = "Get a sku's stock")
    @ApiResponse(responseCode = "200", description = "The sku's stock")
    @ApiResponse(responseCode = "404", description = "The sku has no stock record")
    @GetMapping("/{sku_id}")
    Mono<StockResponse> get(@PathVariable("sku_id") long skuId) {
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
