package com.example.inventory;

import java.util.List;

/**
 * What inventory did for one order; {@code reason} explains a rejection or a tombstone; {@code amountCents} is what
 * the reserved units cost when they were reserved (null for a rejection, a tombstone, or a reservation made before
 * prices existed).
 */
public record Reservation(long orderId, ReservationStatus status, List<Long> skuIds, String reason, Long amountCents) {

    public Reservation {
        skuIds = List.copyOf(skuIds);
    }

    /** A cancel arrived before its order: nothing was ever reserved, and nothing will be. */
    boolean isTombstone() {
        return status == ReservationStatus.RELEASED && skuIds.isEmpty();
    }
}
