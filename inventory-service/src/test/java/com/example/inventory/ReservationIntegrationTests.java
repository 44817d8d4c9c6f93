package com.example.inventory;

import static org.assertj.core.api.Assertions.assertThat;
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
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.InventoryEvent;
import com.example.events.InventoryRejected;
import com.example.events.InventoryReserved;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;

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
        return database.rows("select status, sku_ids::text as sku_ids, reason from reservations where order_id = ?",
                orderId).get(0);
    }

    /** The orders' ids as one JDBC parameter for {@code = any(?)}. */
    private static Object ids(List<OrderCreated> orders) {
        return orders.stream().map(OrderCreated::orderId).toArray(Long[]::new);
    }
}
