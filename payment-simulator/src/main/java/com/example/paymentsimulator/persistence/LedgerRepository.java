package com.example.paymentsimulator.persistence;

import java.time.OffsetDateTime;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.example.paymentsimulator.Charge;
import com.example.paymentsimulator.ChargeStatus;
import com.example.paymentsimulator.Refund;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * SQL for charges and refunds. Rows are only ever inserted, each by one statement that commits on its own: when an
 * insert has answered, its row is in the ledger for good.
 */
@Repository
public class LedgerRepository {

    private static final String CHARGE_COLUMNS = "charge_id, idempotency_key, request_hash, amount_cents, reference, "
            + "status, created_at";
    private static final String REFUND_COLUMNS = "refund_id, charge_id, idempotency_key, amount_cents, created_at";

    private final DatabaseClient db;

    LedgerRepository(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Inserts the charge unless its idempotency key has one, and returns it as stored; empty when the key has one.
     * A concurrent insert of the same key waits for the other to commit and then inserts nothing (no unique
     * violation), so the caller can read the winner's charge at once.
     */
    public Mono<Charge> insertChargeIfAbsent(Charge charge) {
        return db.sql("insert into charges (charge_id, idempotency_key, request_hash, amount_cents, reference, status) "
                + "values (:chargeId, :key, :hash, :amount, :reference, :status) "
                + "on conflict (idempotency_key) do nothing returning " + CHARGE_COLUMNS)
                .bind("chargeId", charge.chargeId())
                .bind("key", charge.idempotencyKey())
                .bind("hash", charge.requestHash())
                .bind("amount", charge.amountCents())
                .bind("reference", charge.reference())
                .bind("status", charge.status().wire())
                .map(LedgerRepository::charge)
                .one();
    }

    /**
     * Inserts the refund unless its idempotency key or its charge has one (either unique constraint), and returns it
     * as stored; empty otherwise.
     */
    public Mono<Refund> insertRefundIfAbsent(Refund refund) {
        return db.sql("insert into refunds (refund_id, charge_id, idempotency_key, amount_cents) "
                + "values (:refundId, :chargeId, :key, :amount) on conflict do nothing returning " + REFUND_COLUMNS)
                .bind("refundId", refund.refundId())
                .bind("chargeId", refund.chargeId())
                .bind("key", refund.idempotencyKey())
                .bind("amount", refund.amountCents())
                .map(LedgerRepository::refund)
                .one();
    }

    public Mono<Charge> findCharge(String chargeId) {
        return db.sql("select " + CHARGE_COLUMNS + " from charges where charge_id = :chargeId")
                .bind("chargeId", chargeId).map(LedgerRepository::charge).one();
    }

    public Mono<Charge> findChargeByKey(String idempotencyKey) {
        return db.sql("select " + CHARGE_COLUMNS + " from charges where idempotency_key = :key")
                .bind("key", idempotencyKey).map(LedgerRepository::charge).one();
    }

    public Mono<Refund> findRefundByKey(String idempotencyKey) {
        return db.sql("select " + REFUND_COLUMNS + " from refunds where idempotency_key = :key")
                .bind("key", idempotencyKey).map(LedgerRepository::refund).one();
    }

    /** Every charge, oldest first. */
    public Flux<Charge> charges() {
        return db.sql("select " + CHARGE_COLUMNS + " from charges order by created_at, charge_id")
                .map(LedgerRepository::charge).all();
    }

    /** Every refund, oldest first. */
    public Flux<Refund> refunds() {
        return db.sql("select " + REFUND_COLUMNS + " from refunds order by created_at, refund_id")
                .map(LedgerRepository::refund).all();
    }

    private static Charge charge(Readable row) {
        return new Charge(row.get("charge_id", String.class), row.get("idempotency_key", String.class),
                row.get("request_hash", String.class), row.get("amount_cents", Long.class),
                row.get("reference", String.class), ChargeStatus.ofWire(row.get("status", String.class)),
                row.get("created_at", OffsetDateTime.class).toInstant());
    }

    private static Refund refund(Readable row) {
        return new Refund(row.get("refund_id", String.class), row.get("charge_id", String.class),
                row.get("idempotency_key", String.class), row.get("amount_cents", Long.class),
                row.get("created_at", OffsetDateTime.class).toInstant());
    }
}
