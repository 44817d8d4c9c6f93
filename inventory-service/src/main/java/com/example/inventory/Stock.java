package com.example.inventory;

/** The units of one sku: free to reserve, and held by orders. */
public record Stock(long skuId, int available, int reserved) {
}
