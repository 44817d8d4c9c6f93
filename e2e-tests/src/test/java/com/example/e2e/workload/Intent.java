package com.example.e2e.workload;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * One business intent: what a user wants to order, named by (user id, idempotency key). Every retry
 * of it sends exactly the same request.
 *
 * @param couponCode     null for none
 * @param doubleSubmit   the client sends the first request twice at once (a double click)
 * @param cancelAfter    how long after its order is acknowledged the user cancels it; null for never
 */
public record Intent(int number, long userId, List<Long> skuIds, String couponCode, UUID idempotencyKey, Plan plan,
        boolean doubleSubmit, Duration cancelAfter) {

    public Intent {
        skuIds = List.copyOf(skuIds);
    }

    /** An intent its user does not cancel. */
    public Intent(int number, long userId, List<Long> skuIds, String couponCode, UUID idempotencyKey, Plan plan,
            boolean doubleSubmit) {
        this(number, userId, skuIds, couponCode, idempotencyKey, plan, doubleSubmit, null);
    }

    /** The request body of POST /orders (docs/contract.md); built by hand so an invalid coupon code stays invalid. */
    public String requestBody() {
        StringBuilder json = new StringBuilder("{\"user_id\": ").append(userId).append(", \"sku_ids\": ")
                .append(skuIds).append(", \"idempotency_key\": \"").append(idempotencyKey).append('"');
        if (couponCode != null) {
            json.append(", \"coupon_code\": \"").append(couponCode).append('"');
        }
        return json.append('}').toString();
    }
}
