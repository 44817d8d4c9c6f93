package com.example.inventory;

/**
 * The units of one sku: free to reserve, and held by orders, and its unit price in cents. Longs, because a release
 * adds units back to whatever is available, which may already be at the API's bound.
 */
public record Stock(long skuId, long available, long reserved, long priceCents) {
}
