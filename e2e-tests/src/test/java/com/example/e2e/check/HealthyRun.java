package com.example.e2e.check;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.example.e2e.check.SystemState.Charge;
import com.example.e2e.check.SystemState.Coupon;
import com.example.e2e.check.SystemState.Order;
import com.example.e2e.check.SystemState.OutboxRow;
import com.example.e2e.check.SystemState.Queue;
import com.example.e2e.check.SystemState.Refund;
import com.example.e2e.check.SystemState.Reservation;
import com.example.e2e.check.SystemState.Stock;
import com.example.e2e.nemesis.Fault;
import com.example.e2e.nemesis.FaultKind;
import com.example.e2e.topology.Service;
import com.example.e2e.workload.Attempt;
import com.example.e2e.workload.Catalog;
import com.example.e2e.workload.History;
import com.example.e2e.workload.Intent;
import com.example.e2e.workload.IntentHistory;
import com.example.e2e.workload.Outcome;
import com.example.e2e.workload.Plan;

/**
 * A small run in which everything went right, built by hand for the checker's tests: a confirmed order
 * with a coupon (whose first answer was lost, so the retry was a replay), an order rejected for lack of
 * stock, an invalid request and an intent whose outcome the client never learned. Tests break one
 * thing in its mutable parts and see that the checker notices.
 */
final class HealthyRun {

    /** Slot 1: users 100001.., skus 1001.. (see Catalog). */
    final Catalog catalog = new Catalog(1);
    final long plentySku = 1001;
    final long otherSku = 1002;
    final long emptySku = 1099;
    final String coupon = "E2E-S1-1";

    final List<IntentHistory> intents = new ArrayList<>();
    final List<Order> orders = new ArrayList<>();
    final Map<Service, List<OutboxRow>> outbox = new EnumMap<>(Service.class);
    final Map<Service, Map<UUID, String>> processed = new EnumMap<>(Service.class);
    final Map<Long, Stock> stock = new HashMap<>();
    final Map<Long, Reservation> reservations = new HashMap<>();
    final Map<String, Coupon> coupons = new HashMap<>();
    final Map<Long, String> redemptions = new HashMap<>();
    final Map<Long, List<String>> assessments = new HashMap<>();
    final List<Queue> queues = new ArrayList<>();
    final Map<Long, Long> unitPrices = new HashMap<>();
    final Map<String, Integer> discounts = new HashMap<>();
    final Map<Long, Long> amounts = new HashMap<>();
    final List<Charge> charges = new ArrayList<>();
    final List<Refund> refunds = new ArrayList<>();
    final Map<Long, String> payments = new HashMap<>();
    final List<Fault> faults = new ArrayList<>();
    final Map<Service, Long> duplicates = new EnumMap<>(Service.class);
    final List<Requirement> requirements = new ArrayList<>();
    Quiet quiet = new Quiet(true, Duration.ofSeconds(2), "");

    HealthyRun() {
        for (Service service : Service.ours()) {
            outbox.put(service, new ArrayList<>());
            processed.put(service, new HashMap<>());
            duplicates.put(service, 1L);
        }
        catalog.initialStock().forEach((sku, units) -> stock.put(sku, new Stock(sku, units, 0)));
        coupons.put(catalog.usedCoupon(), new Coupon(catalog.usedCoupon(), List.of()));
        coupons.put(coupon, new Coupon(coupon, List.of()));
        catalog.initialStock().keySet().forEach(sku -> unitPrices.put(sku, 1_000 + sku));
        unitPrices.put(plentySku, 2_001L);
        unitPrices.put(otherSku, 2_002L);
        coupons.keySet().forEach(code -> discounts.put(code, 10));

        Intent confirmed = new Intent(1, 100_001, List.of(plentySku, plentySku, otherSku), coupon, UUID.randomUUID(),
                Plan.CONFIRM, false);
        intents.add(new IntentHistory(confirmed, List.of(lostAnswer(), answer(200, true, 101)), Outcome.ACKED));
        orders.add(new Order(101, confirmed.userId(), confirmed.idempotencyKey(), "CONFIRMED", "OK", "OK", "OK", "OK",
                coupon, null, confirmed.skuIds()));
        published(Service.ORDER, 101, "OrderCreated", Service.INVENTORY, Service.COUPON, Service.RISK);
        published(Service.INVENTORY, 101, "InventoryReserved", Service.ORDER);
        published(Service.COUPON, 101, "CouponRedeemed", Service.ORDER);
        published(Service.RISK, 101, "RiskApproved", Service.ORDER);
        published(Service.ORDER, 101, "PaymentRequested", Service.PAYMENT);
        published(Service.PAYMENT, 101, "PaymentSucceeded", Service.ORDER);
        charges.add(new Charge("ch_101", "order-101", 5403, "succeeded"));
        payments.put(101L, "SUCCEEDED");
        reservations.put(101L, new Reservation(101, "RESERVED", confirmed.skuIds()));
        stock.put(plentySku, new Stock(plentySku, 5_000 - 2, 2));
        stock.put(otherSku, new Stock(otherSku, 5_000 - 1, 1));
        coupons.put(coupon, new Coupon(coupon, List.of(101L)));
        // (2 x 2001 + 2002) less 10%: 5403.6, rounded down.
        amounts.put(101L, 5403L);
        redemptions.put(101L, "REDEEMED");
        assessments.put(101L, List.of("APPROVED"));

        Intent outOfStock = new Intent(2, 100_002, List.of(plentySku, emptySku), null, UUID.randomUUID(),
                Plan.OUT_OF_STOCK, false);
        intents.add(new IntentHistory(outOfStock, List.of(answer(201, false, 102)), Outcome.ACKED));
        orders.add(new Order(102, outOfStock.userId(), outOfStock.idempotencyKey(), "REJECTED", "REJECTED", "NOT_NEEDED",
                "OK", "PENDING", null, "out of stock: sku " + emptySku, outOfStock.skuIds()));
        published(Service.ORDER, 102, "OrderCreated", Service.INVENTORY, Service.COUPON, Service.RISK);
        published(Service.ORDER, 102, "OrderCancelled", Service.INVENTORY, Service.COUPON, Service.PAYMENT);
        // payment-service heard of the order only by its cancellation: a tombstone, never charged.
        payments.put(102L, "FAILED");
        published(Service.INVENTORY, 102, "InventoryRejected", Service.ORDER);
        published(Service.COUPON, 102, "CouponNotNeeded", Service.ORDER);
        published(Service.RISK, 102, "RiskApproved", Service.ORDER);
        reservations.put(102L, new Reservation(102, "REJECTED", List.of()));
        assessments.put(102L, List.of("APPROVED"));

        Intent invalid = new Intent(3, 100_003, List.of(plentySku), "NOT A VALID CODE!", UUID.randomUUID(), Plan.INVALID,
                false);
        intents.add(new IntentHistory(invalid, List.of(answer(400, false, 0)), Outcome.FAILED));
        Intent unknown = new Intent(4, 100_004, List.of(plentySku), null, UUID.randomUUID(), Plan.CONFIRM, false);
        intents.add(new IntentHistory(unknown, List.of(lostAnswer(), lostAnswer()), Outcome.UNKNOWN));

        queues.add(new Queue("order.events.inventory-service", 0, 0));
        queues.add(new Queue("order.events.inventory-service.dlq", 0, 0));
        faults.add(new Fault(FaultKind.SERVICE_KILL, "inventory-service-1", "", Instant.now(), Duration.ofSeconds(9), true,
                "exit code 137 (SIGKILL), restarted"));
    }

    /** An event in the publisher's outbox (sent) and in each consumer's processed_events. */
    UUID published(Service publisher, long orderId, String type, Service... consumers) {
        UUID id = UUID.randomUUID();
        outbox.get(publisher).add(new OutboxRow(id, "order", Long.toString(orderId), type,
                Subscriptions.exchangeOf(publisher), orderId, true, false));
        for (Service consumer : consumers) {
            processed.get(consumer).put(id, type);
        }
        return id;
    }

    Order order(long id) {
        return orders.stream().filter(order -> order.id() == id).findFirst().orElseThrow();
    }

    SystemState state() {
        return new SystemState(orders, outbox, processed, stock, reservations, coupons, redemptions, assessments, queues,
                new SystemState.Prices(unitPrices, discounts, amounts), new SystemState.Money(charges, refunds, payments));
    }

    History history() {
        return new History(intents);
    }

    Evidence evidence() {
        return new Evidence(faults, duplicates, Map.of(), 1, 1, 2, 0);
    }

    List<Verdict> check() {
        return Checker.check(catalog, history(), state(), evidence(), requirements, quiet);
    }

    private static Attempt answer(int status, boolean replayed, long orderId) {
        return new Attempt(Instant.now(), Duration.ofMillis(20), status, null, replayed, orderId, "localhost:1");
    }

    private static Attempt lostAnswer() {
        return new Attempt(Instant.now(), Duration.ofSeconds(3), 0, Attempt.Failure.TIMEOUT, false, 0, "localhost:1");
    }
}
