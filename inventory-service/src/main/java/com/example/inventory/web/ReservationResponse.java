package com.example.inventory.web;

import java.util.List;

import com.example.inventory.Reservation;
import com.example.inventory.ReservationStatus;

import io.swagger.v3.oas.annotations.media.Schema;

/** An order's reservation as the contract shows it. */
@Schema(name = "Reservation")
record ReservationResponse(long orderId, ReservationStatus status, List<Long> skuIds,
        @Schema(nullable = true, description = "why nothing was reserved; null unless REJECTED") String reason) {

    static ReservationResponse of(Reservation reservation) {
        return new ReservationResponse(reservation.orderId(), reservation.status(), reservation.skuIds(),
                reservation.reason());
    }
}
