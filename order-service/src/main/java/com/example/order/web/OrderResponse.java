package com.example.order.web;

import java.time.Instant;
import java.util.List;

import com.example.order.Order;
import com.example.order.OrderStatus;
import com.example.order.StepStatus;

import io.swagger.v3.oas.annotations.media.Schema;

/** The order body of the contract. */
@Schema(name = "Order", example = """
        {"order_id": 123, "user_id": 42, "status": "CREATED", "sku_ids": [1001, 1002, 1002],
         "coupon_code": "WELCOME10", "amount_cents": null, "created_at": "2026-11-30T10:15:30.123Z", "updated_at": "2026-11-30T10:15:30.123Z",
         "steps": {"inventory": "PENDING", "coupon": "PENDING", "risk": "PENDING", "payment": "PENDING"}, "rejection_reason": null}""")
record OrderResponse(long orderId, long userId, OrderStatus status, List<Long> skuIds,
        @Schema(nullable = true, description = "null when the order has no coupon") String couponCode,
        @Schema(nullable = true, description = "what the order costs: the sum over its units of each sku's price, "
                + "less the coupon's discount, rounded down; null until inventory and the coupon step have answered")
        Long amountCents,
        Instant createdAt, Instant updatedAt, Steps steps,
        @Schema(nullable = true, description = "why the order was rejected; null unless it was") String rejectionReason) {

    /** Where each step of the order stands. */
    @Schema(name = "OrderSteps")
    record Steps(StepStatus inventory, StepStatus coupon, StepStatus risk, StepStatus payment) {
    }

    static OrderResponse of(Order order) {
        return new OrderResponse(order.id(), order.userId(), order.status(), order.skuIds(), order.couponCode(),
                order.amountCents(), order.createdAt(), order.updatedAt(),
                new Steps(order.inventoryStep(), order.couponStep(), order.riskStep(),
                        order.paymentStep()), order.rejectionReason());
    }
}
