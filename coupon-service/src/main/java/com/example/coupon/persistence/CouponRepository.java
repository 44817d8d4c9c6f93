package com.example.coupon.persistence;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.example.coupon.Coupon;

import reactor.core.publisher.Mono;

/** SQL for coupons; whether one is held comes from the redemptions table. */
@Repository
public class CouponRepository {

    private final DatabaseClient db;

    CouponRepository(DatabaseClient db) {
        this.db = db;
    }

    public Mono<Void> upsert(String code, int discountPercent) {
        return db.sql("""
                insert into coupons (code, discount_percent) values (:code, :discountPercent)
                on conflict (code) do update set discount_percent = excluded.discount_percent, updated_at = now()""")
                .bind("code", code)
                .bind("discountPercent", discountPercent)
                .then();
    }

    public Mono<Coupon> find(String code) {
        return db.sql("""
                select c.code, c.discount_percent, r.order_id as redeemed_by_order
                from coupons c left join redemptions r on r.coupon_code = c.code and r.status = 'REDEEMED'
                where c.code = :code""")
                .bind("code", code)
                .map(row -> new Coupon(row.get("code", String.class), row.get("discount_percent", Integer.class),
                        row.get("redeemed_by_order", Long.class)))
                .one();
    }

    public Mono<Boolean> exists(String code) {
        return db.sql("select exists (select 1 from coupons where code = :code) as known")
                .bind("code", code)
                .map(row -> row.get("known", Boolean.class))
                .one();
    }
}
