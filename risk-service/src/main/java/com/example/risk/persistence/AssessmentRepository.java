package com.example.risk.persistence;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Collection;
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

    /** An assessment's columns, as {@link #assessment} reads them. */
    private static final String COLUMNS = "order_id, user_id, units, decision, reasons, order_occurred_at";

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

    /**
     * {@link #lockUser} for several users in one statement, one after the other in ascending order of their ids (the
     * sorted subquery is not flattened, so its rows, and the locks, come in that order), so that two transactions
     * locking overlapping sets of users queue instead of waiting for each other.
     */
    public Mono<Void> lockUsers(Collection<Long> userIds) {
        return db.sql("""
                select pg_advisory_xact_lock(user_id)
                from (select distinct user_id from unnest(:userIds::bigint[]) as users (user_id) order by user_id) ordered""")
                .bind("userIds", userIds.toArray(Long[]::new))
                .then();
    }

    /**
     * The order's assessment if it has one, and in any case the user's orders placed after {@code from}, up to and
     * including {@code to}: one round trip for what a new order needs to be decided. Read after the user's lock was
     * taken (in an earlier statement, so that this one sees every assessment committed before the lock was granted).
     */
    public Mono<Seen> findWithRecentOrders(long orderId, long userId, Instant from, Instant to) {
        return db.sql("""
                select a.order_id, a.user_id, a.units, a.decision, a.reasons, a.order_occurred_at,
                       (select count(*) from assessments recent
                        where recent.user_id = :userId and recent.order_occurred_at > :from
                          and recent.order_occurred_at <= :to) as recent_orders
                from (values (:orderId)) as wanted (order_id)
                left join assessments a on a.order_id = wanted.order_id""")
                .bind("orderId", orderId)
                .bind("userId", userId)
                .bind("from", from)
                .bind("to", to)
                .map(row -> new Seen(row.get("order_id") == null ? null : assessment(row),
                        row.get("recent_orders", Long.class)))
                .one();
    }

    /**
     * What {@link #findWithRecentOrders} read.
     *
     * @param assessment   the order's assessment, or null when it has none yet
     * @param recentOrders the user's assessed orders within the interval asked for
     */
    public record Seen(Assessment assessment, long recentOrders) {
    }

    /**
     * Inserts the assessment unless the order has one, and emits what it inserted: nothing on a conflict. The caller
     * holds the user's lock and found none; a conflict (the same order under another user) inserts nothing rather
     * than aborting the transaction with a unique violation.
     */
    public Mono<Assessment> insertIfAbsent(Assessment assessment) {
        return db.sql("""
                insert into assessments (order_id, user_id, units, decision, reasons, order_occurred_at)
                values (:orderId, :userId, :units, :decision, :reasons, :occurredAt)
                on conflict (order_id) do nothing
                returning\s""" + COLUMNS)
                .bind("orderId", assessment.orderId())
                .bind("userId", assessment.userId())
                .bind("units", assessment.units())
                .bind("decision", assessment.decision().name())
                .bind("reasons", assessment.reasons().toArray(String[]::new))
                .bind("occurredAt", assessment.orderOccurredAt())
                .map(AssessmentRepository::assessment)
                .one();
    }

    public Mono<Assessment> find(long orderId) {
        return db.sql("select " + COLUMNS + " from assessments where order_id = :orderId")
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
