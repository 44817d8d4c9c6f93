package com.example.order.web;

import java.time.Instant;
import java.util.List;

import com.example.order.Order;
import com.example.order.OrderStatus;
import com.example.order.StepStatus;

/** The order body of the contract. */
record OrderResponse(long orderId, long userId, OrderStatus status, List<Long> skuIds, String couponCode,
        Instant createdAt, Instant updatedAt, Steps steps, String rejectionReason) {

    record Steps(StepStatus inventory, StepStatus coupon, StepStatus risk) {
    }

    static OrderResponse of(Order order) {
        return new OrderResponse(order.id(), order.userId(), order.status(), order.skuIds(), order.couponCode(),
                order.createdAt(), order.updatedAt(),
                new Steps(order.inventoryStep(), order.couponStep(), order.riskStep()), order.rejectionReason());
    }
}
