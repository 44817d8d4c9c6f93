package com.example.inventory;

import java.util.List;

/** What inventory did for one order; {@code reason} explains a rejection or a tombstone. */
public record Reservation(long orderId, ReservationStatus status, List<Long> skuIds, String reason) {

    public Reservation {
        skuIds = List.copyOf(skuIds);
    }

    /** A cancel arrived before its order: nothing was ever reserved, and nothing will be. */
    boolean isTombstone() {
        return status == ReservationStatus.RELEASED && skuIds.isEmpty();
    }
}
