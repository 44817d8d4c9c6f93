package com.example.order.web;

import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/** Body of {@code POST /orders} (snake_case on the wire). */
@Schema(name = "PlaceOrder")
record CreateOrderRequest(
        @NotNull @Positive Long userId,
        @Schema(description = "1 to 100 sku ids; a repeated id is one more unit of that sku")
        @NotNull @Size(min = 1, max = 100) List<@NotNull @Positive Long> skuIds,
        @Schema(description = "Names one business intent of this user: the same key with the same payload is a replay")
        @NotNull UUID idempotencyKey,
        @Schema(nullable = true, description = "Optional coupon: 1 to 64 of A-Z a-z 0-9 _ -")
        @Size(min = 1, max = 64) @Pattern(regexp = "[A-Za-z0-9_-]*", message = "may contain only A-Z a-z 0-9 _ -")
        String couponCode) {
}
