package com.example.coupon.persistence;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.example.coupon.Redemption;
import com.example.coupon.RedemptionStatus;

import reactor.core.publisher.Mono;

/**
 * SQL for redemptions: one row per order. Inserts never raise a unique violation (that would abort
 * the transaction): a conflict inserts nothing, and the caller reads the row that won.
 */
@Repository
public class RedemptionRepository {

    private final DatabaseClient db;

    RedemptionRepository(DatabaseClient db) {
        this.db = db;
    }

    public Mono<Redemption> find(long orderId) {
        return db.sql("select order_id, coupon_code, status, reason, discount_percent from redemptions "
                        + "where order_id = :orderId")
                .bind("orderId", orderId)
                .map(row -> new Redemption(row.get("order_id", Long.class), row.get("coupon_code", String.class),
                        RedemptionStatus.valueOf(row.get("status", String.class)), row.get("reason", String.class),
                        row.get("discount_percent", Integer.class)))
                .one();
    }

    /**
     * Makes the order the coupon's holder; true when it did. Inserts nothing when the coupon does not
     * exist, when another order holds it (the partial unique index; an uncommitted holder is waited
     * for), or when the order already has its row. The row keeps the coupon's discount as it is now.
     *
     * @return the discount the order redeemed the coupon with; empty when it did not redeem it
     */
    public Mono<Integer> redeemIfFree(long orderId, String code) {
        return db.sql("""
                insert into redemptions (order_id, coupon_code, status, discount_percent)
                select :orderId, code, 'REDEEMED', discount_percent from coupons where code = :code
                on conflict do nothing
                returning discount_percent""")
                .bind("orderId", orderId)
                .bind("code", code)
                .map(row -> row.get("discount_percent", Integer.class))
                .one();
    }

    public Mono<Void> rejectIfAbsent(long orderId, String code, String reason) {
        return db.sql("""
                insert into redemptions (order_id, coupon_code, status, reason) values (:orderId, :code, 'REJECTED', :reason)
                on conflict (order_id) do nothing""")
                .bind("orderId", orderId)
                .bind("code", code)
                .bind("reason", reason)
                .then();
    }

    /** Leaves the tombstone of a cancel that came before its order; true when it did. */
    public Mono<Boolean> tombstoneIfAbsent(long orderId, String reason) {
        return db.sql("""
                insert into redemptions (order_id, status, reason) values (:orderId, 'CANCELLED', :reason)
                on conflict (order_id) do nothing""")
                .bind("orderId", orderId)
                .bind("reason", reason)
                .fetch().rowsUpdated()
                .map(inserted -> inserted == 1);
    }

    /**
     * Gives back the coupon the order holds and returns its code; empty when it holds none. Only the order's own
     * row changes, and leaving REDEEMED can break neither the one-holder index nor a check, whatever happened to
     * the coupon's definition meanwhile: a compensation must never fail on the data and become poison.
     */
    public Mono<String> release(long orderId) {
        return db.sql("""
                update redemptions set status = 'RELEASED', updated_at = now()
                where order_id = :orderId and status = 'REDEEMED'
                returning coupon_code""")
                .bind("orderId", orderId)
                .map(row -> row.get("coupon_code", String.class))
                .one();
    }
}
