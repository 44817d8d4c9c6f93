package com.example.inventory.persistence;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.example.inventory.Reservation;
import com.example.inventory.ReservationStatus;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
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

    /**
     * Inserts the rows of the orders that have none, in one statement, and emits the ids of those it inserted; an
     * order that has a row already is skipped, as {@link #insertIfAbsent} skips it.
     */
    public Flux<Long> insertAll(List<Reservation> rows) {
        return db.sql("""
                        insert into reservations (order_id, status, sku_ids, reason, amount_cents)
                        select r.order_id, r.status, r.sku_ids::bigint[], r.reason, r.amount_cents
                          from unnest(:orderIds::bigint[], :statuses::text[], :skuIds::text[], :reasons::text[],
                                      :amounts::bigint[]) as r (order_id, status, sku_ids, reason, amount_cents)
                         order by r.order_id
                        on conflict (order_id) do nothing
                        returning order_id""")
                .bind("orderIds", rows.stream().map(Reservation::orderId).toArray(Long[]::new))
                .bind("statuses", rows.stream().map(row -> row.status().name()).toArray(String[]::new))
                // Rows of different lengths: each as an array literal, cast back per row.
                .bind("skuIds", rows.stream().map(row -> row.skuIds().stream().map(String::valueOf)
                        .collect(Collectors.joining(",", "{", "}"))).toArray(String[]::new))
                .bind("reasons", rows.stream().map(Reservation::reason).toArray(String[]::new))
                .bind("amounts", rows.stream().map(Reservation::amountCents).toArray(Long[]::new))
                .map(row -> row.get("order_id", Long.class))
                .all();
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
