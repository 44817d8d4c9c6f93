package com.example.order;

/** Where an order stands: waiting for the downstream answers, or final. */
public enum OrderStatus {
    CREATED, CONFIRMED, REJECTED
}
