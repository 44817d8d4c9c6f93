package com.example.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.DomainEvent;
import com.example.events.InventoryEvent;
import com.example.events.InventoryRejected;
import com.example.events.InventoryReserved;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reservations as order events drive them, against the real broker and database. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@FreshInfrastructure
@TestPropertySource(properties = { "spring.cloud.stream.default.consumer.concurrency=4",
        "spring.cloud.stream.rabbit.default.consumer.prefetch=1" })
class ReservationIntegrationTests extends ConsumerTestSupport {

    private static final AtomicLong IDS = new AtomicLong();

    @Autowired
    Inventory inventory;

    @Autowired
    TransactionalOperator transactions;

    @Autowired
    DatabaseClient db;

    @Override
    protected String replyExchange() {
        return InventoryEvent.EXCHANGE;
    }

    @Test
    void reservesEveryUnitOfAnOrderCountingARepeatedSkuAsOneMoreUnit() {
        long a = stock(5, 1999);
        long b = stock(5, 250);
        OrderCreated order = order(a, b, b);

        broker.publish(order);

        assertThat(awaitReplies(order.orderId(), 1)).containsExactly("InventoryReserved");
        InventoryReserved reserved = reply(order.orderId(), InventoryReserved.class);
        assertThat(reserved.skuIds()).containsExactly(a, b, b);
        assertThat(reserved.amountCents()).as("each unit at its sku's price").isEqualTo(1999 + 2 * 250);
        assertThat(stockOf(a)).containsExactly(4L, 1L);
        assertThat(stockOf(b)).containsExactly(3L, 2L);
        assertThat(reservation(order.orderId())).containsEntry("status", "RESERVED");
    }

    @Test
    void anOrderSeenBeforeUnderAnotherEventIdReservesNothingMoreAndGetsTheSameAnswer() {
        long a = stock(5, 1999);
        long b = stock(5, 250);
        OrderCreated order = order(a, b, b);
        OrderCreated again = new OrderCreated(UUID.randomUUID(), order.orderId(), order.userId(), order.skuIds(), null,
                Instant.now());

        broker.publish(order);
        assertThat(awaitReplies(order.orderId(), 1)).containsExactly("InventoryReserved");
        broker.publish(again);

        assertThat(awaitReplies(order.orderId(), 2)).containsExactly("InventoryReserved", "InventoryReserved");
        assertThat(stockOf(a)).as("reserved once").containsExactly(4L, 1L);
        assertThat(stockOf(b)).containsExactly(3L, 2L);
    }

    @Test
    void reservesNothingWhenOneSkuIsShort() {
        long a = stock(5);
        long b = stock(1);
        OrderCreated order = order(a, b, b);

        broker.publish(order);

        assertThat(awaitReplies(order.orderId(), 1)).containsExactly("InventoryRejected");
        assertThat(reply(order.orderId(), InventoryRejected.class).reason())
                .isEqualTo("insufficient stock for sku " + b + ": 2 requested, 1 available");
        assertThat(stockOf(a)).containsExactly(5L, 0L);
        assertThat(stockOf(b)).containsExactly(1L, 0L);
        assertThat(reservation(order.orderId())).containsEntry("status", "REJECTED");
    }

    @Test
    void aSkuWithoutStockIsInsufficientStock() {
        long a = stock(5);
        long unknown = IDS.incrementAndGet() + 900_000;
        OrderCreated order = order(a, unknown);

        broker.publish(order);

        assertThat(awaitReplies(order.orderId(), 1)).containsExactly("InventoryRejected");
        assertThat(reply(order.orderId(), InventoryRejected.class).reason())
                .isEqualTo("insufficient stock for sku " + unknown + ": 1 requested, 0 available");
        assertThat(stockOf(a)).containsExactly(5L, 0L);
    }

    @Test
    void aCancelReleasesTheReservationOnceHoweverOftenTheOrderIsCancelled() {
        long a = stock(5);
        OrderCreated order = order(a, a);
        broker.publish(order);
        awaitReplies(order.orderId(), 1);
        assertThat(stockOf(a)).containsExactly(3L, 2L);

        broker.publish(cancel(order.orderId()));
        broker.publish(cancel(order.orderId()));

        assertThat(awaitReplies(order.orderId(), 3)).containsExactly("InventoryReserved", "InventoryReleased",
                "InventoryReleased");
        assertThat(stockOf(a)).containsExactly(5L, 0L);
        assertThat(reservation(order.orderId())).containsEntry("status", "RELEASED");
    }

    @Test
    void aCancelBeforeTheOrderLeavesATombstoneSoTheLateOrderReservesNothing() {
        long a = stock(5);
        OrderCreated order = order(a);

        broker.publish(cancel(order.orderId()));
        assertThat(awaitReplies(order.orderId(), 1)).containsExactly("InventoryReleased");
        broker.publish(order);

        assertThat(awaitReplies(order.orderId(), 2)).containsExactly("InventoryReleased", "InventoryRejected");
        assertThat(reply(order.orderId(), InventoryRejected.class).reason()).contains("was cancelled");
        assertThat(stockOf(a)).containsExactly(5L, 0L);
        assertThat(reservation(order.orderId())).containsEntry("status", "RELEASED");
    }

    /**
     * Orders lock two skus, half of them naming them in the opposite order; a deadlock would show as
     * a retried transaction, so none may be retried.
     */
    @Test
    void twoHundredOrdersRacingForFiftyUnitsReserveExactlyFiftyAndNeverGoNegative() {
        long scarce = stock(50);
        long plenty = stock(1000);
        double retriesBefore = counter("events.retries", null);
        List<OrderCreated> orders = LongStream.range(0, 200)
                .mapToObj(i -> i % 2 == 0 ? order(scarce, plenty) : order(plenty, scarce)).toList();

        orders.parallelStream().forEach(broker::publish);

        await().atMost(PATIENCE.multipliedBy(2)).until(() ->
                database.count("select count(*) from reservations where order_id = any(?)", ids(orders)) == 200);
        assertThat(stockOf(scarce)).containsExactly(0L, 50L);
        assertThat(stockOf(plenty)).containsExactly(950L, 50L);
        assertThat(database.count("select count(*) from reservations where status = 'RESERVED' and order_id = any(?)",
                ids(orders))).isEqualTo(50);
        assertThat(database.count("select count(*) from outbox_events where event_type = 'InventoryReserved' "
                + "and aggregate_id::bigint = any(?)", ids(orders))).isEqualTo(50);
        assertThat(database.count("select count(*) from outbox_events where event_type = 'InventoryRejected' "
                + "and aggregate_id::bigint = any(?)", ids(orders))).isEqualTo(150);
        assertThat(counter("events.retries", null) - retriesBefore).as("no deadlock, no retry").isZero();
    }

    /** What a batch of orders locks before any of them is reserved: the stock of every sku they name. */
    @Test
    void aBatchOfOrdersLocksTheStockOfAllItsSkusBeforeReservingAny() {
        long a = stock(5);
        long b = stock(5);
        long c = stock(5);
        long untouched = stock(5);

        List<Long> lockedByTheBatch = transactions.transactional(inventory.lockStockFor(List.of(order(c, a), order(b)))
                        .then(Mono.fromCallable(() -> Stream.of(a, b, c, untouched)
                                .filter(sku -> !database.canLockNow("select 1 from stock where sku_id = ? for update nowait",
                                        sku))
                                .toList())))
                .block(PATIENCE);

        assertThat(lockedByTheBatch).containsExactly(a, b, c);
    }

    /**
     * A batch's orders are decided against the stock it locked ahead, each as the orders before it left it, and their
     * reservations are written when the batch commits: none is in the database while the batch is being applied.
     */
    @Test
    void aBatchDecidesEachOrderAgainstWhatTheOrdersBeforeItTookAndWritesThemWhenItCommits() {
        long a = stock(3, 100);
        long b = stock(1, 40);
        List<OrderCreated> orders = List.of(order(a, a), order(a, b), order(a), order(b));

        List<String> answers = transactions.transactional(applyAsBatch(orders, Flux.<DomainEvent>fromIterable(orders))
                        .concatWith(Mono.defer(() -> db.sql("select count(*) from reservations where order_id = "
                                        + "any(:ids::bigint[])")
                                .bind("ids", ids(orders))
                                .map(row -> "rows before commit: " + row.get(0, Long.class))
                                .one())))
                .collectList()
                .block(PATIENCE);

        assertThat(answers).containsExactly("InventoryReserved", "InventoryReserved", "InventoryRejected",
                "InventoryRejected", "rows before commit: 0");
        assertThat(stockOf(a)).containsExactly(0L, 3L);
        assertThat(stockOf(b)).containsExactly(0L, 1L);
        assertThat(reservation(orders.get(1).orderId())).containsEntry("status", "RESERVED")
                .containsEntry("sku_ids", "{" + a + "," + b + "}").containsEntry("amount_cents", 140L);
        assertThat(reservation(orders.get(2).orderId())).containsEntry("status", "REJECTED")
                .containsEntry("reason", "insufficient stock for sku " + a + ": 1 requested, 0 available");
        assertThat(reservation(orders.get(3).orderId())).containsEntry("status", "REJECTED");
    }

    /** An order and its cancel in one batch: its units go back before the next order of the batch is decided. */
    @Test
    void aCancelInTheBatchOfItsOrderGivesItsUnitsToTheOrdersAfterIt() {
        long a = stock(1);
        OrderCreated first = order(a);
        OrderCreated second = order(a);

        List<String> answers = applyAsBatch(List.of(first, second), first, cancel(first.orderId()), second);

        assertThat(answers).containsExactly("InventoryReserved", "InventoryReleased", "InventoryReserved");
        assertThat(stockOf(a)).containsExactly(0L, 1L);
        assertThat(reservation(first.orderId())).containsEntry("status", "RELEASED")
                .containsEntry("sku_ids", "{" + a + "}");
        assertThat(reservation(second.orderId())).containsEntry("status", "RESERVED");
    }

    /** A cancel of a reservation committed before: the batch's later orders may take the units it gives back. */
    @Test
    void aCancelInABatchGivesUnitsReservedBeforeToTheBatchsLaterOrders() {
        long a = stock(1);
        OrderCreated earlier = order(a);
        OrderCreated later = order(a);
        assertThat(applyAsBatch(List.of(earlier), earlier)).containsExactly("InventoryReserved");

        List<String> answers = applyAsBatch(List.of(later), cancel(earlier.orderId()), later);

        assertThat(answers).containsExactly("InventoryReleased", "InventoryReserved");
        assertThat(stockOf(a)).containsExactly(0L, 1L);
        assertThat(reservation(earlier.orderId())).containsEntry("status", "RELEASED");
    }

    /** A cancel ahead of its order in one batch leaves a tombstone the order then finds, as across batches. */
    @Test
    void aCancelAheadOfItsOrderInOneBatchLeavesATombstoneTheOrderFinds() {
        long a = stock(5);
        OrderCreated order = order(a);

        List<String> answers = applyAsBatch(List.of(order), cancel(order.orderId()), order);

        assertThat(answers).containsExactly("InventoryReleased", "InventoryRejected");
        assertThat(stockOf(a)).containsExactly(5L, 0L);
        assertThat(reservation(order.orderId())).containsEntry("status", "RELEASED").containsEntry("sku_ids", "{}");
    }

    /**
     * An order seen before the batch (here a cancel's tombstone) is found out only by the batch's write, too late for
     * its answer: the batch fails and leaves nothing behind; the inbox then applies its events one at a time.
     */
    @Test
    void anOrderSeenBeforeItsBatchRollsTheBatchBack() {
        long a = stock(5);
        OrderCreated cancelledBefore = order(a);
        OrderCreated other = order(a);
        transactions.transactional(inventory.release(cancel(cancelledBefore.orderId()))).block(PATIENCE);

        assertThatThrownBy(() -> applyAsBatch(List.of(cancelledBefore, other), cancelledBefore, other))
                .hasMessageContaining("orders [" + cancelledBefore.orderId() + "] have a reservation from before "
                        + "this batch");

        assertThat(stockOf(a)).containsExactly(5L, 0L);
        assertThat(database.count("select count(*) from reservations where order_id = ?", other.orderId())).isZero();
        assertThat(reservation(cancelledBefore.orderId())).containsEntry("status", "RELEASED");
    }

    /** Applies the events as the inbox applies a batch: in one transaction, the stock of its orders locked ahead. */
    private List<String> applyAsBatch(List<OrderCreated> orders, DomainEvent... events) {
        return transactions.transactional(applyAsBatch(orders, Flux.fromArray(events))).collectList().block(PATIENCE);
    }

    private Flux<String> applyAsBatch(List<OrderCreated> orders, Flux<DomainEvent> events) {
        return inventory.lockStockFor(orders).thenMany(events.concatMap(event -> event instanceof OrderCreated order
                ? inventory.reserve(order).map(DomainEvent::eventType)
                : inventory.release((OrderCancelled) event).map(DomainEvent::eventType)));
    }

    private long stock(int available) {
        return stock(available, 0);
    }

    private long stock(int available, long priceCents) {
        long skuId = IDS.incrementAndGet();
        database.execute("insert into stock (sku_id, available, price_cents) values (?, ?, ?)", skuId, available,
                priceCents);
        return skuId;
    }

    private static OrderCreated order(Long... skuIds) {
        return new OrderCreated(UUID.randomUUID(), IDS.incrementAndGet() + 100_000, 7L, List.of(skuIds), null,
                Instant.now());
    }

    private static OrderCancelled cancel(long orderId) {
        return new OrderCancelled(UUID.randomUUID(), orderId, "risk: user is blocked", Instant.now());
    }

    /** [available, reserved] */
    private List<Long> stockOf(long skuId) {
        Map<String, Object> row = database.rows("select available, reserved from stock where sku_id = ?", skuId).get(0);
        return List.of((Long) row.get("available"), (Long) row.get("reserved"));
    }

    private Map<String, Object> reservation(long orderId) {
        return database.rows("select status, sku_ids::text as sku_ids, reason, amount_cents from reservations "
                + "where order_id = ?", orderId).get(0);
    }

    /** The orders' ids as one JDBC parameter for {@code = any(?)}. */
    private static Object ids(List<OrderCreated> orders) {
        return orders.stream().map(OrderCreated::orderId).toArray(Long[]::new);
    }
}
