package com.example.payment.persistence;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.example.events.DomainEvent;
import com.example.messaging.outbox.OutboundEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.messaging.relay.OutboxHandOff;
import com.example.payment.Payment;
import com.example.payment.PaymentStateMachine.Transition;
import com.example.payment.PaymentStatus;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** SQL for payments. Every status change is a {@link Transition}, guarded by the status it moves from. */
@Repository
public class PaymentRepository {

    private static final String COLUMNS = """
            order_id, user_id, amount_cents, status, charge_key, charge_id, refund_key, refund_id, cancel_requested,
            failure_reason, attempts, next_attempt_at, created_at, updated_at""";

    /**
     * Claims up to {@code :limit} payments with work due, in one statement: CREATED ones (moved to PROCESSING on the
     * way: START_CHARGE), PROCESSING ones whose next attempt is due, SUCCEEDED ones with a refund asked for. Each
     * claimed payment is leased to this instance until {@code now() + :leaseMillis}; another instance takes it up
     * only after that. Rows locked by anyone else (an event being applied, another instance's claim) are skipped,
     * never waited for. The statuses are literals, the same as the partial index {@code payments_due}'s, so that
     * the planner uses the index for every execution of the prepared statement.
     */
    private static final String CLAIM_DUE = """
            with due as (
                select order_id, status from payments
                where (status in ('CREATED', 'PROCESSING') or (status = 'SUCCEEDED' and cancel_requested))
                  and next_attempt_at <= now()
                order by next_attempt_at
                limit :limit
                for update skip locked)
            update payments p
            set status = case when due.status = 'CREATED' then 'PROCESSING' else p.status end,
                attempts = p.attempts + 1,
                next_attempt_at = now() + :leaseMillis * interval '1 millisecond',
                updated_at = case when due.status = 'CREATED' then now() else p.updated_at end
            from due
            where p.order_id = due.order_id and p.status = due.status
            returning p.order_id, p.user_id, p.amount_cents, p.status, p.charge_key, p.charge_id, p.refund_key,
                p.refund_id, p.cancel_requested, p.failure_reason, p.attempts, p.next_attempt_at, p.created_at,
                p.updated_at, due.status as claimed_in""";

    /** One {@link Transition}, guarded by its {@code from} status (see {@link #move}). */
    private static final String MOVE = """
            update payments
            set status = :to,
                charge_id = coalesce(:chargeId, charge_id),
                refund_id = coalesce(:refundId, refund_id),
                failure_reason = coalesce(:failureReason, failure_reason),
                attempts = 0,
                next_attempt_at = now(),
                updated_at = now()
            where order_id = :orderId and status = :from
            returning\s""" + COLUMNS;

    /**
     * Several {@link Transition}s, each guarded by its {@code from} status (see {@link #moveAllAndAnnounce}). The rows
     * are locked first, in ascending order of their order ids: the inbox locks the payments of a batch in that order
     * too, so the two can queue for rows but never wait for each other.
     */
    private static final String MOVE_ALL = """
            locked as materialized (
                select order_id from payments where order_id = any(:orderIds::bigint[]) order by order_id for update),
            moved as (
                update payments p
                set status = m.to_status,
                    charge_id = coalesce(m.charge_id, p.charge_id),
                    refund_id = coalesce(m.refund_id, p.refund_id),
                    failure_reason = coalesce(m.failure_reason, p.failure_reason),
                    attempts = 0,
                    next_attempt_at = now(),
                    updated_at = now()
                from unnest(:orderIds::bigint[], :froms::text[], :tos::text[], :chargeIds::text[], :refundIds::text[],
                            :failureReasons::text[]) as m (order_id, from_status, to_status, charge_id, refund_id,
                                                           failure_reason)
                join locked on locked.order_id = m.order_id
                where p.order_id = m.order_id and p.status = m.from_status
                returning\s""" + Arrays.stream(COLUMNS.split(",")).map(column -> "p." + column.strip())
            .collect(Collectors.joining(", ")) + ")";

    private final DatabaseClient db;
    private final OutboxWriter outbox;
    /** Publishes the events of moves right after their commit, or leaves them to the relay's sweep. */
    private final OutboxHandOff.Writer handOff;

    PaymentRepository(DatabaseClient db, OutboxWriter outbox, ObjectProvider<OutboxHandOff> handOff) {
        this.db = db;
        this.outbox = outbox;
        this.handOff = OutboxHandOff.writer(handOff);
    }

    /** A payment the worker claimed, with the status it was claimed in (which says what work it has left). */
    public record Claimed(Payment payment, PaymentStatus claimedIn) {
    }

    /** Inserts a CREATED payment unless the order has one (in any status); emits whether it inserted. */
    public Mono<Boolean> insertRequested(long orderId, long userId, long amountCents) {
        return db.sql("""
                insert into payments (order_id, user_id, amount_cents, status, charge_key)
                values (:orderId, :userId, :amountCents, :status, :chargeKey)
                on conflict do nothing""")
                .bind("orderId", orderId)
                .bind("userId", userId)
                .bind("amountCents", amountCents)
                .bind("status", PaymentStatus.CREATED.name())
                .bind("chargeKey", Payment.chargeKey(orderId))
                .fetch().rowsUpdated()
                .map(rows -> rows > 0);
    }

    /**
     * Inserts a FAILED payment without an amount for an order cancelled before its payment was asked for, unless
     * the order has a payment; emits whether it inserted. A PaymentRequested that comes later finds it and charges
     * nothing.
     */
    public Mono<Boolean> insertCancelled(long orderId, String reason) {
        return db.sql("""
                insert into payments (order_id, status, charge_key, failure_reason)
                values (:orderId, :status, :chargeKey, :reason)
                on conflict do nothing""")
                .bind("orderId", orderId)
                .bind("status", PaymentStatus.FAILED.name())
                .bind("chargeKey", Payment.chargeKey(orderId))
                .bind("reason", reason)
                .fetch().rowsUpdated()
                .map(rows -> rows > 0);
    }

    public Mono<Payment> find(long orderId) {
        return db.sql("select " + COLUMNS + " from payments where order_id = :orderId")
                .bind("orderId", orderId)
                .map(PaymentRepository::payment)
                .one();
    }

    /** The payment, locked until the transaction ends: the worker's claim passes it by meanwhile. */
    public Mono<Payment> findForUpdate(long orderId) {
        return db.sql("select " + COLUMNS + " from payments where order_id = :orderId for update")
                .bind("orderId", orderId)
                .map(PaymentRepository::payment)
                .one();
    }

    /**
     * Moves the payment along one transition, if it is still in the transition's {@code from} status, setting the
     * given ids and reason (null leaves a column as it is). A moved payment starts its next step afresh: no attempts
     * yet, due at once. Emits the moved payment, or nothing when someone else moved it first.
     */
    public Mono<Payment> move(long orderId, Transition transition, String chargeId, String refundId,
            String failureReason) {
        return bindMove(db.sql(MOVE), orderId, transition, chargeId, refundId, failureReason)
                .map(PaymentRepository::payment).one();
    }

    /**
     * A transition to record with the event that announces it: the payment of {@code orderId} moves along
     * {@code transition} if it is still in its {@code from} status, setting the given ids and reason (null leaves a
     * column as it is), as {@link #move} does. The event's {@code order_id} is the payment's.
     */
    public record Move(long orderId, Transition transition, String chargeId, String refundId, String failureReason,
            DomainEvent announcement) {
    }

    /**
     * {@link #move}, and the event that announces it appended to the outbox, in one statement: run outside a
     * transaction, both commit in one round trip, or neither. When the payment had moved already (someone else
     * recorded the same outcome first), nothing is written, the event neither, and nothing is emitted. Where the
     * relay takes hand-offs, the event is handed to it once the statement has committed.
     */
    public Mono<Payment> moveAndAnnounce(Move move) {
        OutboundEvent announcement = OutboundEvent.of(move.announcement());
        DatabaseClient.GenericExecuteSpec statement = outbox.appendWith("moved as (" + MOVE + ")", "moved", "order_id",
                "order_id", announcement, handOff.lease());
        // one() answers once the statement has completed, so after its commit.
        return bindMove(statement, move.orderId(), move.transition(), move.chargeId(), move.refundId(),
                move.failureReason())
                .map(PaymentRepository::payment).one()
                .doOnNext(moved -> handOff.offer(List.of(announcement.id())));
    }

    /**
     * {@link #moveAndAnnounce} for several payments, in one statement and one round trip, atomic on its own: each
     * payment still in its transition's {@code from} status moves and its event is appended; a payment someone else
     * moved first stays as it is, without an event. Emits the payments it moved, once the statement has committed
     * (and their events are handed to the relay where it takes hand-offs). At most one move per payment.
     */
    public Flux<Payment> moveAllAndAnnounce(List<Move> moves) {
        Map<String, OutboundEvent> announcements = new LinkedHashMap<>();
        moves.forEach(move -> announcements.put(Long.toString(move.orderId()), OutboundEvent.of(move.announcement())));
        if (announcements.size() != moves.size()) {
            return Flux.error(new IllegalArgumentException("more than one move for a payment: " + moves));
        }
        return outbox.appendEachWith(MOVE_ALL, "moved", "order_id", announcements, handOff.lease())
                .bind("orderIds", moves.stream().map(Move::orderId).toArray(Long[]::new))
                .bind("froms", moves.stream().map(move -> move.transition().from().name()).toArray(String[]::new))
                .bind("tos", moves.stream().map(move -> move.transition().to().name()).toArray(String[]::new))
                .bind("chargeIds", moves.stream().map(Move::chargeId).toArray(String[]::new))
                .bind("refundIds", moves.stream().map(Move::refundId).toArray(String[]::new))
                .bind("failureReasons", moves.stream().map(Move::failureReason).toArray(String[]::new))
                .map(PaymentRepository::payment)
                .all()
                // The rows arrive before the statement completes; its commit is only certain at the end.
                .collectList()
                .doOnNext(moved -> handOff.offer(moved.stream()
                        .map(payment -> announcements.get(Long.toString(payment.orderId())).id()).toList()))
                .flatMapIterable(moved -> moved);
    }

    private static DatabaseClient.GenericExecuteSpec bindMove(DatabaseClient.GenericExecuteSpec statement,
            long orderId, Transition transition, String chargeId, String refundId, String failureReason) {
        DatabaseClient.GenericExecuteSpec update = statement
                .bind("orderId", orderId)
                .bind("from", transition.from().name())
                .bind("to", transition.to().name());
        update = bindNullable(update, "chargeId", chargeId);
        update = bindNullable(update, "refundId", refundId);
        return bindNullable(update, "failureReason", failureReason);
    }

    /**
     * Marks a PROCESSING or SUCCEEDED payment for a refund once it has succeeded, with its refund key; emits whether
     * the payment (still in {@code status}, not marked before) was marked.
     */
    public Mono<Boolean> requestRefund(long orderId, PaymentStatus status) {
        return db.sql("""
                update payments set cancel_requested = true, refund_key = :refundKey
                where order_id = :orderId and status = :status and not cancel_requested""")
                .bind("orderId", orderId)
                .bind("status", status.name())
                .bind("refundKey", Payment.refundKey(orderId))
                .fetch().rowsUpdated()
                .map(rows -> rows > 0);
    }

    /** Claims the payments whose work is due (see {@link #CLAIM_DUE}). */
    public Flux<Claimed> claimDue(int limit, Duration lease) {
        return db.sql(CLAIM_DUE)
                .bind("limit", limit)
                .bind("leaseMillis", lease.toMillis())
                .map(row -> new Claimed(payment(row), PaymentStatus.valueOf(row.get("claimed_in", String.class))))
                .all();
    }

    /**
     * START_CHARGE for the payments of {@code orderIds} still CREATED, as the claim does it ({@link #CLAIM_DUE}), each
     * leased until {@code :leaseMillis} from now by the clock, not from the transaction's start; emits the payments it
     * moved. For payments the calling transaction inserted itself, just before it commits: nobody else sees them yet,
     * so it neither waits for a lock nor skips one, and a payment a cancel failed meanwhile stays as it is.
     */
    public Flux<Payment> startCharges(Collection<Long> orderIds, Duration lease) {
        return db.sql("""
                update payments
                set status = 'PROCESSING',
                    attempts = attempts + 1,
                    next_attempt_at = clock_timestamp() + :leaseMillis * interval '1 millisecond',
                    updated_at = now()
                where order_id = any(:orderIds::bigint[]) and status = 'CREATED'
                returning\s""" + COLUMNS)
                .bind("orderIds", orderIds.toArray(Long[]::new))
                .bind("leaseMillis", lease.toMillis())
                .map(PaymentRepository::payment)
                .all();
    }

    /** Takes the payment up again after {@code delay}, if it is still in {@code status}. */
    public Mono<Void> retryLater(long orderId, PaymentStatus status, Duration delay) {
        return db.sql("""
                update payments set next_attempt_at = now() + :delayMillis * interval '1 millisecond'
                where order_id = :orderId and status = :status""")
                .bind("orderId", orderId)
                .bind("status", status.name())
                .bind("delayMillis", delay.toMillis())
                .then();
    }

    /** How many payments are in each status (statuses without any are absent). */
    public Mono<Map<PaymentStatus, Long>> countByStatus() {
        return db.sql("select status, count(*) as payments from payments group by status")
                .map(row -> Map.entry(PaymentStatus.valueOf(row.get("status", String.class)),
                        row.get("payments", Long.class)))
                .all()
                .collectMap(Map.Entry::getKey, Map.Entry::getValue);
    }

    /**
     * The payments with work left (CREATED, PROCESSING, or SUCCEEDED with a refund asked for: the rows of the claim's
     * index, which answers this): whether there is any, and how long the oldest PROCESSING one has been PROCESSING.
     */
    public Mono<WorkLeft> workLeft() {
        return db.sql("""
                select count(*) > 0 as any_left,
                       (extract(epoch from now() - min(updated_at) filter (where status = 'PROCESSING')) * 1000)::bigint
                           as oldest_processing_millis
                from payments
                where status in ('CREATED', 'PROCESSING') or (status = 'SUCCEEDED' and cancel_requested)""")
                .map(row -> new WorkLeft(Boolean.TRUE.equals(row.get("any_left", Boolean.class)),
                        Optional.ofNullable(row.get("oldest_processing_millis", Long.class)).map(Duration::ofMillis)))
                .one();
    }

    /**
     * @param any              whether any payment has work left
     * @param oldestProcessing how long the oldest PROCESSING payment has been PROCESSING; empty when none is
     */
    public record WorkLeft(boolean any, Optional<Duration> oldestProcessing) {
    }

    private static DatabaseClient.GenericExecuteSpec bindNullable(DatabaseClient.GenericExecuteSpec spec, String name,
            String value) {
        return value == null ? spec.bindNull(name, String.class) : spec.bind(name, value);
    }

    private static Payment payment(Readable row) {
        return new Payment(row.get("order_id", Long.class), row.get("user_id", Long.class),
                row.get("amount_cents", Long.class), PaymentStatus.valueOf(row.get("status", String.class)),
                row.get("charge_key", String.class), row.get("charge_id", String.class),
                row.get("refund_key", String.class), row.get("refund_id", String.class),
                row.get("cancel_requested", Boolean.class), row.get("failure_reason", String.class),
                row.get("attempts", Integer.class), instant(row, "next_attempt_at"), instant(row, "created_at"),
                instant(row, "updated_at"));
    }

    private static Instant instant(Readable row, String column) {
        OffsetDateTime value = row.get(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
