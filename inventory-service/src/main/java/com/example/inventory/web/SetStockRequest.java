package com.example.inventory.web;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/** Body of {@code PUT /stock/{sku_id}}. */
record SetStockRequest(@NotNull @PositiveOrZero Integer available) {
}
