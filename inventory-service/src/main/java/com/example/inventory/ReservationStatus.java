package com.example.inventory;

/** Where an order's reservation stands. A reservation only ever moves from RESERVED to RELEASED. */
public enum ReservationStatus {

    /** Every unit of the order is held. */
    RESERVED,
    /** Nothing is held: some sku lacked stock, or the order was cancelled before it arrived. */
    REJECTED,
    /** The units were given back, or (without sku ids) a cancel came first and left a tombstone. */
    RELEASED
}
