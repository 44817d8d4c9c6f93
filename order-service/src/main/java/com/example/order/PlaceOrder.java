package com.example.order;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * A validated request to place an order: one business intent, named by (user id, idempotency key).
 *
 * @param traceparent W3C trace context of the request, carried into the event; may be null
 */
public record PlaceOrder(long userId, List<Long> skuIds, UUID idempotencyKey, String couponCode, String traceparent) {

    public PlaceOrder {
        skuIds = List.copyOf(skuIds);
    }

    /**
     * Identifies the payload of the intent: the same user, the same multiset of sku ids (in any order)
     * and the same coupon give the same fingerprint; anything else a different one.
     */
    public String fingerprint() {
        List<Long> units = skuIds.stream().sorted().toList();
        String canonical = "user=" + userId + ";skus=" + units + ";coupon=" + (couponCode == null ? "" : couponCode);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
