package com.example.order;

import java.time.Instant;
import java.util.List;

/**
 * An order as it is now. The idempotency key is request metadata and deliberately not part of it. {@code amountCents}
 * is null until inventory and the coupon step have answered ({@link Pricing}); {@code pricing} is what they said.
 */
public record Order(long id, long userId, OrderStatus status, List<Long> skuIds, String couponCode,
        Instant createdAt, Instant updatedAt, StepStatus inventoryStep, StepStatus couponStep, StepStatus riskStep,
        StepStatus paymentStep, String rejectionReason, Pricing pricing, Long amountCents) {

    public Order {
        skuIds = List.copyOf(skuIds);
    }
}
