package com.example.order.web;

import java.util.List;
import java.util.UUID;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/** Body of {@code POST /orders} (snake_case on the wire). */
record CreateOrderRequest(
        @NotNull @Positive Long userId,
        @NotNull @Size(min = 1, max = 100) List<@NotNull @Positive Long> skuIds,
        @NotNull UUID idempotencyKey,
        @Size(min = 1, max = 64) @Pattern(regexp = "[A-Za-z0-9_-]*", message = "may contain only A-Z a-z 0-9 _ -")
        String couponCode) {
}
