package com.example.inventory.web;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * Body of {@code PUT /stock/{sku_id}}. The bound keeps every count far from the integer limit: a release adds
 * units back to {@code available}, and a release that overflowed would fail every time, i.e. be poison, and
 * the compensation would be lost.
 */
@Schema(name = "SetStock")
record SetStockRequest(@NotNull @PositiveOrZero @Max(SetStockRequest.MAX_AVAILABLE) Integer available) {

    static final long MAX_AVAILABLE = 1_000_000_000;
}
