package com.example.inventory.web;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * Body of {@code PUT /stock/{sku_id}}. The bound of {@code available} is the API's, not the database's: a release
 * adds units back to {@code available} without any bound (it may exceed this one), so the counts are bigint with no
 * upper check, and no release can fail on them and become poison. {@code price_cents} is optional: a new sku
 * without one costs 0, an existing one keeps its price.
 */
@Schema(name = "SetStock")
record SetStockRequest(@NotNull @PositiveOrZero @Max(SetStockRequest.MAX_AVAILABLE) Integer available,
        @PositiveOrZero @Max(SetStockRequest.MAX_PRICE_CENTS) @Schema(description = "unit price in cents; "
                + "optional: 0 for a new sku, unchanged for an existing one") Long priceCents) {

    static final long MAX_AVAILABLE = 1_000_000_000;
    static final long MAX_PRICE_CENTS = 1_000_000_000;
}
