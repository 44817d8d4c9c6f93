package com.example.risk.persistence;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.example.risk.Assessment;
import com.example.risk.RiskDecision;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Mono;

/** SQL for assessments: one row per order, never changed. */
@Repository
public class AssessmentRepository {

    private final DatabaseClient db;

    AssessmentRepository(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Serializes assessments of one user until the transaction ends. The advisory lock key is the user
     * id; nothing else in the risk database takes advisory locks.
     */
    public Mono<Void> lockUser(long userId) {
        return db.sql("select pg_advisory_xact_lock(:userId)").bind("userId", userId).then();
    }

    /** The user's orders placed after {@code from}, up to and including {@code to}. */
    public Mono<Long> countOrders(long userId, Instant from, Instant to) {
        return db.sql("""
                select count(*) as orders from assessments
                where user_id = :userId and order_occurred_at > :from and order_occurred_at <= :to""")
                .bind("userId", userId)
                .bind("from", from)
                .bind("to", to)
                .map(row -> row.get("orders", Long.class))
                .one();
    }

    /**
     * Inserts the assessment unless the order has one. The caller holds the user's lock and found
     * none; a conflict (the same order under another user) inserts nothing rather than aborting the
     * transaction with a unique violation.
     */
    public Mono<Void> insertIfAbsent(Assessment assessment) {
        return db.sql("""
                insert into assessments (order_id, user_id, units, decision, reasons, order_occurred_at)
                values (:orderId, :userId, :units, :decision, :reasons, :occurredAt)
                on conflict (order_id) do nothing""")
                .bind("orderId", assessment.orderId())
                .bind("userId", assessment.userId())
                .bind("units", assessment.units())
                .bind("decision", assessment.decision().name())
                .bind("reasons", assessment.reasons().toArray(String[]::new))
                .bind("occurredAt", assessment.orderOccurredAt())
                .then();
    }

    public Mono<Assessment> find(long orderId) {
        return db.sql("""
                select order_id, user_id, units, decision, reasons, order_occurred_at
                from assessments where order_id = :orderId""")
                .bind("orderId", orderId)
                .map(AssessmentRepository::assessment)
                .one();
    }

    private static Assessment assessment(Readable row) {
        return new Assessment(row.get("order_id", Long.class), row.get("user_id", Long.class),
                row.get("units", Integer.class), RiskDecision.valueOf(row.get("decision", String.class)),
                List.of(row.get("reasons", String[].class)),
                row.get("order_occurred_at", OffsetDateTime.class).toInstant());
    }
}
