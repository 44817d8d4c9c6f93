package com.example.inventory.persistence;

import java.util.Arrays;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.example.inventory.Reservation;
import com.example.inventory.ReservationStatus;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Mono;

/** SQL for reservations: one row per order, never deleted. */
@Repository
public class ReservationRepository {

    private static final String SELECT = "select order_id, status, sku_ids, reason, amount_cents from reservations "
            + "where order_id = :orderId";

    private final DatabaseClient db;

    ReservationRepository(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Inserts the row unless the order has one; true when this call inserted it. A conflict inserts
     * nothing rather than raising a unique violation, which would abort the transaction. When another
     * transaction inserted the order's row and has not committed yet, this waits for it.
     */
    public Mono<Boolean> insertIfAbsent(Reservation reservation) {
        DatabaseClient.GenericExecuteSpec insert = db.sql("""
                insert into reservations (order_id, status, sku_ids, reason, amount_cents)
                values (:orderId, :status, :skuIds::bigint[], :reason, :amountCents)
                on conflict (order_id) do nothing""")
                .bind("orderId", reservation.orderId())
                .bind("status", reservation.status().name())
                .bind("skuIds", reservation.skuIds().toArray(Long[]::new));
        insert = reservation.reason() == null ? insert.bindNull("reason", String.class)
                : insert.bind("reason", reservation.reason());
        insert = reservation.amountCents() == null ? insert.bindNull("amountCents", Long.class)
                : insert.bind("amountCents", reservation.amountCents());
        return insert.fetch().rowsUpdated().map(inserted -> inserted == 1);
    }

    public Mono<Reservation> find(long orderId) {
        return db.sql(SELECT).bind("orderId", orderId).map(ReservationRepository::reservation).one();
    }

    /** Reads the order's row and locks it until the transaction ends. */
    public Mono<Reservation> findForUpdate(long orderId) {
        return db.sql(SELECT + " for update").bind("orderId", orderId).map(ReservationRepository::reservation).one();
    }

    public Mono<Void> markReleased(long orderId) {
        return db.sql("update reservations set status = 'RELEASED', updated_at = now() where order_id = :orderId")
                .bind("orderId", orderId)
                .then();
    }

    private static Reservation reservation(Readable row) {
        return new Reservation(row.get("order_id", Long.class), ReservationStatus.valueOf(row.get("status", String.class)),
                Arrays.asList(row.get("sku_ids", Long[].class)), row.get("reason", String.class),
                row.get("amount_cents", Long.class));
    }
}
