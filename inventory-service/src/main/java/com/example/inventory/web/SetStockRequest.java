package com.example.inventory.web;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/** Body of {@code PUT /stock/{sku_id}}. */
@Schema(name = "SetStock")
record SetStockRequest(@NotNull @PositiveOrZero Integer available) {
}
