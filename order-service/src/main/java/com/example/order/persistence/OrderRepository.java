package com.example.order.persistence;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.example.messaging.outbox.OutboundEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.order.Order;
import com.example.order.OrderStateMachine;
import com.example.order.OrderStatus;
import com.example.order.PlaceOrder;
import com.example.order.Pricing;
import com.example.order.Step;
import com.example.order.StepStatus;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** SQL for orders. Every method joins the caller's transaction when there is one. */
@Repository
public class OrderRepository {

    private static final String SELECT_ORDER = """
            select o.id, o.user_id, o.status, o.coupon_code, o.created_at, o.updated_at, o.inventory_step,
                   o.coupon_step, o.risk_step, o.payment_step, o.rejection_reason, o.request_fingerprint,
                   o.subtotal_cents, o.discount_percent, o.amount_cents,
                   array(select l.sku_id from order_lines l where l.order_id = o.id order by l.line_no) as sku_ids
            from orders o
            """;

    private final DatabaseClient db;
    private final OutboxWriter outbox;

    OrderRepository(DatabaseClient db, OutboxWriter outbox) {
        this.db = db;
        this.outbox = outbox;
    }

    /** An order with the fingerprint of the request that created it. */
    public record StoredOrder(Order order, String fingerprint) {
    }

    /**
     * What {@link #insertIfAbsent} did: inserted the order, or found the order its intent already had.
     *
     * @param inserted whether this statement inserted {@code stored}
     * @param stored   the order, with the fingerprint of the request that created it
     */
    public record Placed(boolean inserted, StoredOrder stored) {
    }

    /**
     * Inserts the order unless the intent exists, with its lines, the first row of its history and the outbox row of
     * {@code created} (the event that creates it, its id also the history row's), in one statement: one round trip,
     * atomic without a transaction around it. The new order's id, the database's to give, is written into the
     * event as its aggregate id and its {@code order_id}; {@code createdAt} is the order's creation and update time,
     * the same instant the event says it occurred at. Emits the order as inserted, its lines the command's. Never
     * raises a unique violation: a conflict inserts nothing, lines, history and event included, and the same statement
     * answers the intent's order as it is (a replay costs one round trip too). Empty when the conflict was with an
     * order committed after the statement started, which its snapshot cannot see (a concurrent first request, whose
     * commit the insert waited for): {@link #findByIntent}, a statement of its own, sees it. With a
     * {@code handOffLease} the event's row is written for the relay's hand-off ({@link OutboxWriter}); null notifies
     * the relay's sweep.
     */
    public Mono<Placed> insertIfAbsent(PlaceOrder command, String fingerprint, Instant createdAt,
            OutboundEvent created, Duration handOffLease) {
        DatabaseClient.GenericExecuteSpec insert = outbox.appendWith("""
                placed as (
                    insert into orders (user_id, idempotency_key, request_fingerprint, coupon_code, created_at,
                                        updated_at)
                    values (:userId, :key, :fingerprint, :couponCode, :createdAt, :createdAt)
                    on conflict (user_id, idempotency_key) do nothing
                    returning id, user_id, status, coupon_code, created_at, updated_at, inventory_step, coupon_step,
                              risk_step, payment_step, rejection_reason, subtotal_cents, discount_percent,
                              amount_cents),
                lines as (
                    insert into order_lines (order_id, line_no, sku_id)
                    select placed.id, line.no, line.sku_id
                      from placed, unnest(:skuIds::bigint[]) with ordinality as line(sku_id, no)),
                history as (
                    insert into order_history (order_id, event_id, event_type, applied, status, inventory_step,
                                               coupon_step, risk_step, payment_step)
                    select id, :eventId, :eventType, true, status, inventory_step, coupon_step, risk_step,
                           payment_step from placed),
                answer as (
                    select placed.*, true as inserted, null as request_fingerprint, null::bigint[] as sku_ids
                      from placed
                    union all
                    -- A one-time filter: read only when the insert met a conflict.
                    select o.id, o.user_id, o.status, o.coupon_code, o.created_at, o.updated_at, o.inventory_step,
                           o.coupon_step, o.risk_step, o.payment_step, o.rejection_reason, o.subtotal_cents,
                           o.discount_percent, o.amount_cents, false, o.request_fingerprint,
                           array(select l.sku_id from order_lines l where l.order_id = o.id order by l.line_no)
                      from orders o
                     where o.user_id = :userId and o.idempotency_key = :key and not exists (select from placed))""",
                "placed", "id", "order_id", created, handOffLease, "answer")
                .bind("userId", command.userId())
                .bind("key", command.idempotencyKey())
                .bind("fingerprint", fingerprint)
                .bind("createdAt", createdAt.atOffset(ZoneOffset.UTC))
                .bind("skuIds", command.skuIds().toArray(Long[]::new))
                .bind("eventId", created.id())
                .bind("eventType", created.type());
        insert = command.couponCode() == null ? insert.bindNull("couponCode", String.class)
                : insert.bind("couponCode", command.couponCode());
        return insert.map(row -> row.get("inserted", Boolean.class)
                ? new Placed(true, new StoredOrder(order(row, command.skuIds()), fingerprint))
                : new Placed(false, new StoredOrder(order(row), row.get("request_fingerprint", String.class))))
                .one();
    }

    public Mono<Order> findById(long orderId) {
        return db.sql(SELECT_ORDER + "where o.id = :id").bind("id", orderId)
                .map(row -> order(row)).one();
    }

    /** Reads the order and locks its row until the transaction ends: replies of one order apply one at a time. */
    public Mono<Order> lockById(long orderId) {
        return db.sql(SELECT_ORDER + "where o.id = :id for update of o").bind("id", orderId)
                .map(row -> order(row)).one();
    }

    /**
     * Reads the orders and locks their rows until the transaction ends, in ascending order of their ids: two
     * transactions that lock several orders this way queue for them rather than each holding one the other wants.
     * Orders that do not exist are left out.
     */
    public Flux<Order> lockAll(Collection<Long> orderIds) {
        return db.sql(SELECT_ORDER + "where o.id = any(:ids) order by o.id for update of o")
                .bind("ids", orderIds.toArray(Long[]::new))
                .map(row -> order(row)).all();
    }

    /**
     * Moves the order to {@code state}, keeps what the reply says about its price, and appends to its timeline what
     * moved it, in one statement (one round trip): the history row is inserted only for the order row the update
     * found. Returns the order as it is now, its lines {@code order}'s (they never change); empty if it does not
     * exist.
     */
    public Mono<Order> moveTo(Order order, OrderStateMachine.State state, Pricing pricing, UUID eventId,
            String eventType) {
        DatabaseClient.GenericExecuteSpec move = db.sql("""
                with moved as (
                    update orders set status = :status, inventory_step = :inventory, coupon_step = :coupon,
                           risk_step = :risk, payment_step = :payment, rejection_reason = :reason,
                           subtotal_cents = coalesce(:subtotal, subtotal_cents),
                           discount_percent = coalesce(:discount, discount_percent), updated_at = now()
                     where id = :id
                 returning id, user_id, status, coupon_code, created_at, updated_at, inventory_step, coupon_step,
                           risk_step, payment_step, rejection_reason, subtotal_cents, discount_percent,
                           amount_cents),
                history as (
                    insert into order_history (order_id, event_id, event_type, applied, note, status, inventory_step,
                                               coupon_step, risk_step, payment_step)
                    select id, :eventId, :eventType, true, null, :status, :inventory, :coupon, :risk, :payment
                      from moved)
                select * from moved""")
                .bind("id", order.id())
                .bind("eventId", eventId)
                .bind("eventType", eventType)
                .bind("status", state.status().name())
                .bind("inventory", state.step(Step.INVENTORY).name())
                .bind("coupon", state.step(Step.COUPON).name())
                .bind("risk", state.step(Step.RISK).name())
                .bind("payment", state.step(Step.PAYMENT).name());
        move = state.rejectionReason() == null ? move.bindNull("reason", String.class)
                : move.bind("reason", state.rejectionReason());
        move = pricing.subtotalCents() == null ? move.bindNull("subtotal", Long.class)
                : move.bind("subtotal", pricing.subtotalCents());
        move = pricing.discountPercent() == null ? move.bindNull("discount", Integer.class)
                : move.bind("discount", pricing.discountPercent());
        return move.map(row -> order(row, order.skuIds())).one();
    }

    /**
     * One row of an order's timeline: the event that made it, the state it left the order in, and why it changed
     * nothing ({@code ignoredBecause}, null when it was applied).
     */
    public record HistoryEntry(long orderId, UUID eventId, String eventType, OrderStateMachine.State state,
            String ignoredBecause) {
    }

    /**
     * Writes what a batch of replies did, in one statement (one round trip): each order's row as the last of its
     * replies left it ({@code moved}: status, steps, rejection reason and what is known of its price) and every
     * reply's history row, in {@code history}'s order. The caller holds the orders' row locks ({@link #lockAll}) and
     * knows their state; nothing here reads it back.
     */
    public Mono<Void> writeAll(Collection<Order> moved, List<HistoryEntry> history) {
        return db.sql("""
                with moved as (
                    update orders o
                       set status = m.status, inventory_step = m.inventory_step, coupon_step = m.coupon_step,
                           risk_step = m.risk_step, payment_step = m.payment_step,
                           rejection_reason = m.rejection_reason, subtotal_cents = m.subtotal_cents,
                           discount_percent = m.discount_percent, updated_at = now()
                      from unnest(:ids::bigint[], :statuses::text[], :inventorySteps::text[], :couponSteps::text[],
                                  :riskSteps::text[], :paymentSteps::text[], :reasons::text[], :subtotals::bigint[],
                                  :discounts::int[])
                           as m (id, status, inventory_step, coupon_step, risk_step, payment_step, rejection_reason,
                                 subtotal_cents, discount_percent)
                     where o.id = m.id)
                insert into order_history (order_id, event_id, event_type, applied, note, status, inventory_step,
                                           coupon_step, risk_step, payment_step)
                select h.order_id, h.event_id, h.event_type, h.note is null, h.note, h.status, h.inventory_step,
                       h.coupon_step, h.risk_step, h.payment_step
                  from unnest(:historyOrderIds::bigint[], :eventIds::uuid[], :eventTypes::text[], :notes::text[],
                              :historyStatuses::text[], :historyInventorySteps::text[], :historyCouponSteps::text[],
                              :historyRiskSteps::text[], :historyPaymentSteps::text[]) with ordinality
                       as h (order_id, event_id, event_type, note, status, inventory_step, coupon_step, risk_step,
                             payment_step, position)
                 order by h.position""")
                .bind("ids", moved.stream().map(Order::id).toArray(Long[]::new))
                .bind("statuses", moved.stream().map(order -> order.status().name()).toArray(String[]::new))
                .bind("inventorySteps", moved.stream().map(order -> order.inventoryStep().name()).toArray(String[]::new))
                .bind("couponSteps", moved.stream().map(order -> order.couponStep().name()).toArray(String[]::new))
                .bind("riskSteps", moved.stream().map(order -> order.riskStep().name()).toArray(String[]::new))
                .bind("paymentSteps", moved.stream().map(order -> order.paymentStep().name()).toArray(String[]::new))
                .bind("reasons", moved.stream().map(Order::rejectionReason).toArray(String[]::new))
                .bind("subtotals", moved.stream().map(order -> order.pricing().subtotalCents()).toArray(Long[]::new))
                .bind("discounts", moved.stream().map(order -> order.pricing().discountPercent())
                        .toArray(Integer[]::new))
                .bind("historyOrderIds", history.stream().map(HistoryEntry::orderId).toArray(Long[]::new))
                .bind("eventIds", history.stream().map(HistoryEntry::eventId).toArray(UUID[]::new))
                .bind("eventTypes", history.stream().map(HistoryEntry::eventType).toArray(String[]::new))
                .bind("notes", history.stream().map(HistoryEntry::ignoredBecause).toArray(String[]::new))
                .bind("historyStatuses", history.stream().map(entry -> entry.state().status().name())
                        .toArray(String[]::new))
                .bind("historyInventorySteps", steps(history, Step.INVENTORY))
                .bind("historyCouponSteps", steps(history, Step.COUPON))
                .bind("historyRiskSteps", steps(history, Step.RISK))
                .bind("historyPaymentSteps", steps(history, Step.PAYMENT))
                .then();
    }

    private static String[] steps(List<HistoryEntry> history, Step step) {
        return history.stream().map(entry -> entry.state().step(step).name()).toArray(String[]::new);
    }

    /** Appends to the order's timeline what a reply did (or why it did nothing). */
    public Mono<Void> recordHistory(HistoryEntry entry) {
        return writeAll(List.of(), List.of(entry));
    }

    /**
     * Claims up to {@code limit} CREATED orders older than {@code deadline} (by the database's clock), oldest first,
     * and locks them until the transaction ends. Rows another transaction holds (a reply being applied, another
     * instance's sweep) are skipped, not waited for: they are claimed at a later sweep if still CREATED then. The
     * status is checked again on the locked row, so an order a reply has just made final is never returned.
     */
    public Flux<Order> claimExpired(Duration deadline, int limit) {
        return db.sql(SELECT_ORDER + """
                where o.status = 'CREATED' and o.created_at < now() - :deadlineMillis * interval '1 millisecond'
                order by o.created_at
                limit :limit
                for update of o skip locked""")
                .bind("deadlineMillis", deadline.toMillis())
                .bind("limit", limit)
                .map(row -> order(row)).all();
    }

    /**
     * Orders in {@code status} created more than {@code olderThan} ago, oldest first. The status is written into the
     * statement (one statement per status, the names of an enum), not bound: the sessions plan a statement once,
     * generically (service.database.plan-cache-mode), and only a plan that knows the status is {@code 'CREATED'} can
     * use the index of waiting orders instead of reading the whole table.
     */
    public Flux<Order> findOlderThan(OrderStatus status, Duration olderThan, int limit) {
        return db.sql(SELECT_ORDER + "where o.status = '" + status.name() + "'" + """
                 and o.created_at < now() - :olderThanMillis * interval '1 millisecond'
                order by o.created_at, o.id
                limit :limit""")
                .bind("olderThanMillis", olderThan.toMillis())
                .bind("limit", limit)
                .map(row -> order(row)).all();
    }

    /** How long the oldest CREATED order has been waiting (by the database's clock); empty when none is. */
    public Mono<Optional<Duration>> oldestCreatedAge() {
        return db.sql("""
                select (extract(epoch from now() - min(created_at)) * 1000)::bigint as age_millis
                from orders where status = 'CREATED'""")
                .map(row -> Optional.ofNullable(row.get("age_millis", Long.class)).map(Duration::ofMillis))
                .one();
    }

    public Mono<StoredOrder> findByIntent(long userId, UUID idempotencyKey) {
        return db.sql(SELECT_ORDER + "where o.user_id = :userId and o.idempotency_key = :key")
                .bind("userId", userId).bind("key", idempotencyKey)
                .map(row -> new StoredOrder(order(row), row.get("request_fingerprint", String.class))).one();
    }

    private static Order order(Readable row) {
        return order(row, Arrays.asList(row.get("sku_ids", Long[].class)));
    }

    private static Order order(Readable row, List<Long> skuIds) {
        return new Order(row.get("id", Long.class), row.get("user_id", Long.class),
                OrderStatus.valueOf(row.get("status", String.class)), skuIds,
                row.get("coupon_code", String.class), instant(row, "created_at"), instant(row, "updated_at"),
                StepStatus.valueOf(row.get("inventory_step", String.class)),
                StepStatus.valueOf(row.get("coupon_step", String.class)),
                StepStatus.valueOf(row.get("risk_step", String.class)),
                StepStatus.valueOf(row.get("payment_step", String.class)), row.get("rejection_reason", String.class),
                new Pricing(row.get("subtotal_cents", Long.class), row.get("discount_percent", Integer.class)),
                row.get("amount_cents", Long.class));
    }

    private static Instant instant(Readable row, String column) {
        return row.get(column, OffsetDateTime.class).toInstant();
    }
}
