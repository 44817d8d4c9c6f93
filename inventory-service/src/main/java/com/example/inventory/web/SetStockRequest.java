package com.example.inventory.web;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * Body of {@code PUT /stock/{sku_id}}. The bound is the API's, not the database's: a release adds units back to
 * {@code available} without any bound (it may exceed this one), so the counts are bigint with no upper check,
 * and no release can fail on them and become poison.
 */
@Schema(name = "SetStock")
record SetStockRequest(@NotNull @PositiveOrZero @Max(SetStockRequest.MAX_AVAILABLE) Integer available) {

    static final long MAX_AVAILABLE = 1_000_000_000;
}
