package com.example.inventory.web;

import java.util.List;

import com.example.inventory.Reservation;
import com.example.inventory.ReservationStatus;

/** An order's reservation as the contract shows it. */
record ReservationResponse(long orderId, ReservationStatus status, List<Long> skuIds, String reason) {

    static ReservationResponse of(Reservation reservation) {
        return new ReservationResponse(reservation.orderId(), reservation.status(), reservation.skuIds(),
                reservation.reason());
    }
}
