package com.example.order;

/** Where an order stands: waiting for the downstream answers, or final (CANCELLED: by its owner or an operator). */
public enum OrderStatus {
    CREATED, CONFIRMED, REJECTED, CANCELLED
}
