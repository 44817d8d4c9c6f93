package com.example.e2e.check;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.example.e2e.check.SystemState.Coupon;
import com.example.e2e.check.SystemState.Order;
import com.example.e2e.check.SystemState.OutboxRow;
import com.example.e2e.check.SystemState.Reservation;
import com.example.e2e.nemesis.FaultKind;
import com.example.e2e.topology.Service;
import com.example.e2e.workload.Cancellation;
import com.example.e2e.workload.Catalog;
import com.example.e2e.workload.History;
import com.example.e2e.workload.IntentHistory;
import com.example.e2e.workload.Outcome;

/**
 * Judges a quiet system: the scenario's history (what clients were told) against the final state
 * (what the services hold) and the evidence (what the faults did). Pure: it reads nothing itself, so
 * its tests feed it hand-made states.
 *
 * <p>Per-order checks look at the scenario's own orders (its catalog's users and skus); checks of the
 * plumbing (outboxes, processed events, queues) look at the whole system, since every earlier scenario
 * must still hold too.
 */
public final class Checker {

    private static final Set<String> FINAL = Set.of("CONFIRMED", "REJECTED", "CANCELLED");
    /** What payment-service's reference of a charge is: the order it pays. */
    private static final String REFERENCE_PREFIX = "order-";

    private final Catalog catalog;
    private final History history;
    private final SystemState state;
    private final Evidence evidence;
    private final List<Requirement> requirements;
    private final Quiet quiet;
    private final List<Order> scenarioOrders;
    private final Map<Intent, List<Order>> ordersByIntent;
    private final Map<Long, Order> ordersById;
    private final Map<Long, List<OutboxRow>> repliesByOrder;
    private final boolean repliesLostOnPurpose;

    /** An intent's identity: (user id, idempotency key). */
    private record Intent(long userId, UUID key) {
    }

    private Checker(Catalog catalog, History history, SystemState state, Evidence evidence,
            List<Requirement> requirements, Quiet quiet) {
        this.catalog = catalog;
        this.history = history;
        this.state = state;
        this.evidence = evidence;
        this.requirements = requirements;
        this.quiet = quiet;
        this.scenarioOrders = state.orders().stream().filter(order -> catalog.ownsUser(order.userId())).toList();
        this.ordersByIntent = state.orders().stream()
                .collect(Collectors.groupingBy(order -> new Intent(order.userId(), order.idempotencyKey())));
        this.ordersById = state.orders().stream().collect(Collectors.toMap(Order::id, Function.identity(), (a, b) -> a));
        this.repliesByOrder = state.outbox().entrySet().stream().filter(entry -> entry.getKey() != Service.ORDER)
                .flatMap(entry -> entry.getValue().stream()).filter(row -> row.orderId() != null)
                .collect(Collectors.groupingBy(OutboxRow::orderId));
        this.repliesLostOnPurpose = evidence.faults().stream()
                .anyMatch(fault -> fault.kind() == FaultKind.REPLY_DEAD_LETTERED && fault.bit());
    }

    /** One verdict per {@link Invariant}, in the enum's order. */
    public static List<Verdict> check(Catalog catalog, History history, SystemState state, Evidence evidence,
            List<Requirement> requirements, Quiet quiet) {
        return new Checker(catalog, history, state, evidence, requirements, quiet).verdicts();
    }

    private List<Verdict> verdicts() {
        return List.of(
                Verdict.of(Invariant.QUIESCENT, quiescent()),
                Verdict.of(Invariant.ACKED_INTENT_HAS_ONE_ORDER, ackedIntents()),
                Verdict.of(Invariant.UNKNOWN_INTENT_ALL_OR_NOTHING, unknownIntents()),
                Verdict.of(Invariant.FAILED_INTENT_HAS_NO_ORDER, failedIntents()),
                Verdict.of(Invariant.NO_DUPLICATE_ORDERS, duplicateOrders()),
                Verdict.of(Invariant.ORDER_EVENTS_ONCE, orderEvents()),
                Verdict.of(Invariant.OUTBOXES_DRAINED, outboxes()),
                Verdict.of(Invariant.CONSUMERS_SAW_EXACTLY_PUBLISHED, consumers()),
                Verdict.of(Invariant.INVENTORY_CONSERVED, inventory()),
                Verdict.of(Invariant.RESERVATIONS_MATCH_ORDERS, reservations()),
                Verdict.of(Invariant.COUPONS_HELD_ONCE, coupons()),
                Verdict.of(Invariant.ONE_RISK_ASSESSMENT, assessments()),
                Verdict.of(Invariant.ORDER_AMOUNTS, amounts()),
                Verdict.of(Invariant.MONEY_MOVED_ONCE, money()),
                Verdict.of(Invariant.PAYMENTS_SETTLED, payments()),
                Verdict.of(Invariant.ORDERS_FINAL_AND_CONSISTENT, consistency()),
                Verdict.of(Invariant.PLANNED_OUTCOMES, plannedOutcomes()),
                Verdict.of(Invariant.DLQS_EMPTY, deadLetters()),
                Verdict.of(Invariant.FAULTS_BIT, faults()));
    }

    private List<String> quiescent() {
        List<String> violations = new ArrayList<>();
        if (!quiet.reached()) {
            violations.add("not quiet after " + quiet.waited().toSeconds() + " s: " + quiet.pending());
        }
        state.queues().stream().filter(queue -> !queue.isDeadLetterQueue())
                .filter(queue -> queue.messages() > 0 || queue.unacknowledged() > 0)
                .forEach(queue -> violations.add("queue " + queue.name() + " holds " + queue.messages() + " ready and "
                        + queue.unacknowledged() + " unacknowledged messages"));
        state.orders().stream().filter(order -> !FINAL.contains(order.status()))
                .forEach(order -> violations.add("order " + order.id() + " is still " + order.status()));
        return violations;
    }

    private List<String> ackedIntents() {
        List<String> violations = new ArrayList<>();
        for (IntentHistory intent : history.intents()) {
            if (intent.outcome() != Outcome.ACKED) {
                continue;
            }
            List<Order> orders = ordersOf(intent);
            List<Long> told = intent.ackedOrderIds();
            if (orders.size() != 1) {
                violations.add(describe(intent) + " was acked with order " + told + " but has " + orders.size() + " orders "
                        + ids(orders));
            } else if (told.size() != 1 || told.get(0) != orders.get(0).id()) {
                violations.add(describe(intent) + " was told order(s) " + told + " but its order is " + orders.get(0).id());
            }
        }
        return violations;
    }

    private List<String> unknownIntents() {
        List<String> violations = new ArrayList<>();
        for (IntentHistory intent : history.intents()) {
            if (intent.outcome() != Outcome.UNKNOWN) {
                continue;
            }
            List<Order> orders = ordersOf(intent);
            if (orders.size() > 1) {
                violations.add(describe(intent) + " has " + orders.size() + " orders " + ids(orders));
            } else if (orders.size() == 1 && !sameUnits(orders.get(0).skuIds(), intent.intent().skuIds())) {
                violations.add(describe(intent) + " has a partial order " + orders.get(0).id() + " with lines "
                        + orders.get(0).skuIds());
            }
        }
        return violations;
    }

    private List<String> failedIntents() {
        return history.intents().stream().filter(intent -> intent.outcome() == Outcome.FAILED)
                .filter(intent -> !ordersOf(intent).isEmpty())
                .map(intent -> describe(intent) + " was refused but has order(s) " + ids(ordersOf(intent))).toList();
    }

    private List<String> duplicateOrders() {
        List<String> violations = new ArrayList<>();
        ordersByIntent.forEach((intent, orders) -> {
            if (orders.size() > 1) {
                violations.add("intent of user " + intent.userId() + " key " + intent.key() + " has " + orders.size()
                        + " orders " + ids(orders));
            }
        });
        Map<Intent, IntentHistory> planned = history.indexBy(h -> new Intent(h.intent().userId(), h.intent().idempotencyKey()));
        for (Order order : scenarioOrders) {
            IntentHistory intent = planned.get(new Intent(order.userId(), order.idempotencyKey()));
            if (intent == null) {
                violations.add("order " + order.id() + " of user " + order.userId() + " belongs to no intent");
            } else if (!sameUnits(order.skuIds(), intent.intent().skuIds())
                    || !Objects.equals(order.couponCode(), intent.intent().couponCode())) {
                violations.add("order " + order.id() + " differs from " + describe(intent) + ": lines " + order.skuIds()
                        + ", coupon " + order.couponCode());
            }
        }
        return violations;
    }

    private List<String> orderEvents() {
        List<String> violations = new ArrayList<>();
        Map<String, List<OutboxRow>> byOrder = state.outbox().getOrDefault(Service.ORDER, List.of()).stream()
                .collect(Collectors.groupingBy(OutboxRow::aggregateId));
        for (Order order : state.orders()) {
            List<OutboxRow> rows = byOrder.getOrDefault(Long.toString(order.id()), List.of());
            long created = rows.stream().filter(row -> row.eventType().equals("OrderCreated")).count();
            long cancelled = rows.stream().filter(row -> row.eventType().equals("OrderCancelled")).count();
            long paymentRequested = rows.stream().filter(row -> row.eventType().equals("PaymentRequested")).count();
            if (created != 1) {
                violations.add("order " + order.id() + " has " + created + " OrderCreated outbox rows");
            }
            long wantCancelled = order.status().equals("CONFIRMED") ? 0 : 1;
            if (FINAL.contains(order.status()) && cancelled != wantCancelled) {
                violations.add(order.status() + " order " + order.id() + " has " + cancelled + " OrderCancelled outbox rows");
            }
            // Asked for at most once; a confirmed order was asked exactly when it had something to pay.
            boolean paid = order.status().equals("CONFIRMED") && !order.paymentStep().equals("NOT_NEEDED");
            if (paymentRequested > 1 || (paid && paymentRequested != 1)) {
                violations.add(order.status() + " order " + order.id() + " (payment " + order.paymentStep() + ") has "
                        + paymentRequested + " PaymentRequested outbox rows");
            }
            rows.stream().filter(row -> !row.sent())
                    .forEach(row -> violations.add(row.eventType() + " " + row.id() + " of order " + order.id() + " is unsent"));
        }
        return violations;
    }

    private List<String> outboxes() {
        List<String> violations = new ArrayList<>();
        state.outbox().forEach((service, rows) -> rows.stream().filter(row -> !row.sent() || row.parked())
                .forEach(row -> violations.add(service + " outbox row " + row.id() + " (" + row.eventType() + " of "
                        + row.aggregateType() + " " + row.aggregateId() + ") is " + (row.parked() ? "parked" : "unsent"))));
        return violations;
    }

    private List<String> consumers() {
        List<String> violations = new ArrayList<>();
        for (Service consumer : Service.ours()) {
            Set<String> types = Subscriptions.appliedBy(consumer);
            Map<UUID, String> published = new HashMap<>();
            for (Service publisher : Subscriptions.publishersFor(consumer)) {
                state.outbox().getOrDefault(publisher, List.of()).stream()
                        .filter(row -> row.sent() && types.contains(row.eventType()))
                        .forEach(row -> published.put(row.id(), row.eventType()));
            }
            Map<UUID, String> processed = state.processed().getOrDefault(consumer, Map.of());
            published.forEach((id, type) -> {
                if (!processed.containsKey(id)) {
                    violations.add(consumer + " never applied " + type + " " + id + " (lost)");
                }
            });
            processed.forEach((id, type) -> {
                if (!published.containsKey(id)) {
                    violations.add(consumer + " applied " + type + " " + id + ", which was never published");
                }
            });
        }
        return violations;
    }

    private List<String> inventory() {
        List<String> violations = new ArrayList<>();
        Map<Long, Integer> held = new HashMap<>();
        state.reservations().values().stream().filter(reservation -> reservation.status().equals("RESERVED"))
                .flatMap(reservation -> reservation.skuIds().stream()).forEach(sku -> held.merge(sku, 1, Integer::sum));
        catalog.initialStock().forEach((sku, initial) -> {
            SystemState.Stock stock = state.stock().get(sku);
            if (stock == null) {
                violations.add("sku " + sku + " has no stock row (seeded with " + initial + ")");
                return;
            }
            int units = held.getOrDefault(sku, 0);
            if (stock.available() < 0 || stock.reserved() < 0) {
                violations.add("sku " + sku + " is negative: available " + stock.available() + ", reserved " + stock.reserved());
            }
            if (stock.available() + units != initial) {
                violations.add("sku " + sku + ": initial " + initial + " != available " + stock.available()
                        + " + held by reservations " + units);
            }
            if (stock.reserved() != units) {
                violations.add("sku " + sku + ": reserved column " + stock.reserved() + " != units held by reservations "
                        + units);
            }
        });
        return violations;
    }

    private List<String> reservations() {
        List<String> violations = new ArrayList<>();
        for (Order order : scenarioOrders) {
            Reservation reservation = state.reservations().get(order.id());
            long reserved = replies(order, "InventoryReserved");
            long released = replies(order, "InventoryReleased");
            if (reserved > 1 || released > 1) {
                violations.add("order " + order.id() + " was reserved " + reserved + " and released " + released
                        + " times by inventory");
            }
            if (reservation == null) {
                violations.add("order " + order.id() + " is unknown to inventory");
                continue;
            }
            boolean holds = reservation.status().equals("RESERVED");
            if (holds && !order.status().equals("CONFIRMED")) {
                violations.add(order.status() + " order " + order.id() + " holds " + reservation.skuIds());
            }
            if (order.status().equals("CONFIRMED") && !holds) {
                violations.add("CONFIRMED order " + order.id() + " holds nothing (reservation " + reservation.status() + ")");
            }
            if (holds && !sameUnits(reservation.skuIds(), order.skuIds())) {
                violations.add("order " + order.id() + " holds " + reservation.skuIds() + " but ordered " + order.skuIds());
            }
        }
        return violations;
    }

    private List<String> coupons() {
        List<String> violations = new ArrayList<>();
        Map<String, List<Order>> confirmedByCoupon = scenarioOrders.stream()
                .filter(order -> order.couponCode() != null && order.status().equals("CONFIRMED"))
                .collect(Collectors.groupingBy(Order::couponCode));
        confirmedByCoupon.forEach((code, orders) -> {
            if (orders.size() > 1) {
                violations.add("coupon " + code + " confirmed for " + orders.size() + " orders " + ids(orders));
            }
            Coupon coupon = state.coupons().get(code);
            for (Order order : orders) {
                if (coupon == null || !coupon.isHeldBy(order.id())) {
                    violations.add("CONFIRMED order " + order.id() + " does not hold coupon " + code + " (" + coupon + ")");
                }
            }
        });
        state.coupons().values().stream().filter(coupon -> catalog.ownsCoupon(coupon.code())).forEach(coupon -> {
            if (coupon.holders().size() > 1) {
                violations.add("coupon " + coupon.code() + " is held by " + coupon.holders().size() + " orders "
                        + coupon.holders());
            }
            for (Long holderId : coupon.holders()) {
                Order holder = ordersById.get(holderId);
                if (holder == null || !holder.status().equals("CONFIRMED") || !coupon.code().equals(holder.couponCode())) {
                    violations.add("coupon " + coupon.code() + " is held by " + (holder == null
                            ? "order " + holderId + ", which does not exist"
                            : holder.status() + " order " + holder.id() + " that asked for " + holder.couponCode()));
                }
            }
        });
        for (Order order : scenarioOrders) {
            long redeemed = replies(order, "CouponRedeemed");
            long released = replies(order, "CouponReleased");
            if (redeemed > 1 || released > 1) {
                violations.add("order " + order.id() + " redeemed its coupon " + redeemed + " and released it " + released
                        + " times");
            }
        }
        return violations;
    }

    private List<String> assessments() {
        List<String> violations = new ArrayList<>();
        for (Order order : scenarioOrders) {
            List<String> decisions = state.assessments().getOrDefault(order.id(), List.of());
            long replies = replies(order, "RiskApproved") + replies(order, "RiskRejected");
            if (decisions.size() != 1 || replies != 1) {
                violations.add("order " + order.id() + " has " + decisions.size() + " risk assessments " + decisions
                        + " and " + replies + " risk replies");
            }
        }
        state.assessments().keySet().stream().filter(orderId -> !ordersById.containsKey(orderId))
                .forEach(orderId -> violations.add("risk assessed order " + orderId + ", which does not exist"));
        return violations;
    }

    /**
     * A confirmed order's amount is what its units cost at their skus' prices (which a run never changes), less its
     * coupon's discount (0 without one), rounded down: neither a unit counted twice or missed, nor a discount applied
     * twice or lost, whatever was redelivered.
     */
    private List<String> amounts() {
        List<String> violations = new ArrayList<>();
        SystemState.Prices prices = state.prices();
        for (Order order : state.orders()) {
            if (!order.status().equals("CONFIRMED")) {
                continue;
            }
            Long amount = prices.orderAmounts().get(order.id());
            long subtotal = 0;
            for (long sku : order.skuIds()) {
                subtotal += prices.unitPrices().getOrDefault(sku, 0L);
            }
            Integer discount = order.couponCode() == null ? Integer.valueOf(0)
                    : prices.discounts().get(order.couponCode());
            if (discount == null) {
                violations.add("CONFIRMED order " + order.id() + " has coupon " + order.couponCode() + ", which is unknown");
                continue;
            }
            long expected = subtotal * (100 - discount) / 100;
            if (amount == null) {
                violations.add("CONFIRMED order " + order.id() + " has no amount (expected " + expected + ")");
            } else if (amount != expected) {
                violations.add("CONFIRMED order " + order.id() + " costs " + amount + ", but its units " + order.skuIds()
                        + " cost " + subtotal + " less " + discount + "%: " + expected);
            }
        }
        return violations;
    }

    /** The provider's ledger against the orders: what a customer was charged, and what they got back. */
    private List<String> money() {
        List<String> violations = new ArrayList<>();
        SystemState.Money money = state.money();
        Map<String, List<SystemState.Refund>> refundsByCharge = money.refunds().stream()
                .collect(Collectors.groupingBy(SystemState.Refund::chargeId));
        Map<String, SystemState.Charge> chargesById = chargesById(money);
        Map<Long, List<SystemState.Charge>> succeededByOrder = new HashMap<>();
        for (SystemState.Charge charge : money.charges()) {
            Long orderId = orderOf(charge);
            if (orderId == null || !ordersById.containsKey(orderId)) {
                violations.add("charge " + charge.chargeId() + " (" + charge.reference() + ", " + charge.amountCents()
                        + " cents, " + charge.status() + ") pays no order");
                continue;
            }
            if (charge.succeeded()) {
                succeededByOrder.computeIfAbsent(orderId, id -> new ArrayList<>()).add(charge);
            }
        }
        money.refunds().forEach(refund -> {
            SystemState.Charge charge = chargesById.get(refund.chargeId());
            if (charge == null || !charge.succeeded()) {
                violations.add("refund " + refund.refundId() + " of " + refund.chargeId() + " refunds no succeeded charge");
            } else if (refund.amountCents() != charge.amountCents()) {
                violations.add("refund " + refund.refundId() + " gave back " + refund.amountCents() + " of charge "
                        + charge.chargeId() + "'s " + charge.amountCents() + " cents");
            }
        });
        refundsByCharge.forEach((chargeId, refunds) -> {
            if (refunds.size() > 1) {
                violations.add("charge " + chargeId + " was refunded " + refunds.size() + " times");
            }
        });
        long confirmedTotal = 0;
        for (Order order : state.orders()) {
            List<SystemState.Charge> charges = succeededByOrder.getOrDefault(order.id(), List.of());
            List<SystemState.Charge> kept = charges.stream().filter(charge -> !refundsByCharge.containsKey(charge.chargeId()))
                    .toList();
            if (charges.size() > 1) {
                violations.add(order.status() + " order " + order.id() + " was charged " + charges.size() + " times: "
                        + charges.stream().map(SystemState.Charge::chargeId).toList());
            }
            Long amount = state.prices().orderAmounts().get(order.id());
            if (order.status().equals("CONFIRMED")) {
                long due = amount == null ? 0 : amount;
                confirmedTotal += due;
                if (due > 0 && (kept.size() != 1 || kept.get(0).amountCents() != due)) {
                    violations.add("CONFIRMED order " + order.id() + " costs " + due + " cents but keeps the charges "
                            + kept.stream().map(charge -> charge.chargeId() + ":" + charge.amountCents()).toList());
                }
                if (due == 0 && !charges.isEmpty()) {
                    violations.add("CONFIRMED order " + order.id() + " costs nothing but was charged " + charges.size()
                            + " times");
                }
            } else if (!kept.isEmpty()) {
                violations.add(order.status() + " order " + order.id() + " (" + order.rejectionReason() + ") keeps "
                        + "the unrefunded charge " + kept.get(0).chargeId() + " of " + kept.get(0).amountCents() + " cents");
            }
        }
        long charged = money.charges().stream().filter(SystemState.Charge::succeeded)
                .mapToLong(SystemState.Charge::amountCents).sum();
        long refunded = money.refunds().stream().mapToLong(SystemState.Refund::amountCents).sum();
        if (charged - refunded != confirmedTotal) {
            violations.add("the provider kept " + (charged - refunded) + " cents (charged " + charged + ", refunded "
                    + refunded + "), the confirmed orders cost " + confirmedTotal);
        }
        return violations;
    }

    /** Payment-service has nothing left to do, and what it says happened is what the provider says. */
    private List<String> payments() {
        List<String> violations = new ArrayList<>();
        SystemState.Money money = state.money();
        Map<Long, Long> succeeded = money.charges().stream().filter(SystemState.Charge::succeeded)
                .map(this::orderOf).filter(Objects::nonNull)
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        Map<String, SystemState.Charge> chargesById = chargesById(money);
        Set<Long> refunded = money.refunds().stream().map(refund -> chargesById.get(refund.chargeId()))
                .filter(Objects::nonNull).map(this::orderOf).filter(Objects::nonNull).collect(Collectors.toSet());
        money.payments().forEach((orderId, status) -> {
            switch (status) {
                case "CREATED", "PROCESSING" -> violations.add("the payment of order " + orderId + " is left " + status);
                case "SUCCEEDED" -> {
                    if (!succeeded.containsKey(orderId) || refunded.contains(orderId)) {
                        violations.add("the payment of order " + orderId + " SUCCEEDED, but the provider has "
                                + succeeded.getOrDefault(orderId, 0L) + " succeeded charges for it"
                                + (refunded.contains(orderId) ? ", refunded" : ""));
                    }
                }
                case "REFUNDED" -> {
                    if (!refunded.contains(orderId)) {
                        violations.add("the payment of order " + orderId + " is REFUNDED, but the provider refunded "
                                + "nothing for it");
                    }
                }
                default -> {
                    // FAILED: nothing was charged, or what was has been refunded (MONEY_MOVED_ONCE sees the rest).
                }
            }
        });
        return violations;
    }

    private static Map<String, SystemState.Charge> chargesById(SystemState.Money money) {
        return money.charges().stream()
                .collect(Collectors.toMap(SystemState.Charge::chargeId, Function.identity(), (a, b) -> a));
    }

    /** The order a charge pays, from its reference; null for a reference payment-service never writes. */
    private Long orderOf(SystemState.Charge charge) {
        if (!charge.reference().startsWith(REFERENCE_PREFIX)) {
            return null;
        }
        try {
            return Long.parseLong(charge.reference().substring(REFERENCE_PREFIX.length()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private List<String> consistency() {
        List<String> violations = new ArrayList<>();
        for (Order order : scenarioOrders) {
            String where = order.status() + " order " + order.id() + " (inventory " + order.inventoryStep() + ", coupon "
                    + order.couponStep() + ", risk " + order.riskStep() + ", payment " + order.paymentStep() + ")";
            List<String> steps = List.of(order.inventoryStep(), order.couponStep(), order.riskStep(), order.paymentStep());
            Reservation reservation = state.reservations().get(order.id());
            List<String> decisions = state.assessments().getOrDefault(order.id(), List.of());
            Coupon coupon = order.couponCode() == null ? null : state.coupons().get(order.couponCode());
            boolean holdsCoupon = coupon != null && coupon.isHeldBy(order.id());
            String redemption = state.redemptions().getOrDefault(order.id(), "none");
            switch (order.status()) {
                case "CONFIRMED" -> {
                    Long amount = state.prices().orderAmounts().get(order.id());
                    String payment = amount != null && amount > 0 ? "OK" : "NOT_NEEDED";
                    if (!order.inventoryStep().equals("OK") || !order.riskStep().equals("OK")
                            || !order.couponStep().equals(order.couponCode() == null ? "NOT_NEEDED" : "OK")
                            || !order.paymentStep().equals(payment)) {
                        violations.add(where + ": a confirmed order needs every step OK (coupon NOT_NEEDED without one, "
                                + "payment NOT_NEEDED when it costs nothing)");
                    }
                    if (order.rejectionReason() != null) {
                        violations.add(where + " has a rejection reason: " + order.rejectionReason());
                    }
                }
                case "REJECTED" -> {
                    if (!steps.contains("REJECTED") && !rejectedAtDeadline(order)) {
                        violations.add(where + ": no step rejected it, nor its deadline");
                    }
                    if (steps.contains("TIMED_OUT") && !rejectedAtDeadline(order)) {
                        violations.add(where + ": a step timed out, but the order was not rejected at its deadline");
                    }
                    if (order.inventoryStep().equals("OK") || order.couponStep().equals("OK")
                            || order.paymentStep().equals("OK")) {
                        violations.add(where + ": a step of a rejected order was never compensated");
                    }
                    if (order.rejectionReason() == null) {
                        violations.add(where + " has no rejection reason");
                    }
                }
                case "CANCELLED" -> {
                    if (order.inventoryStep().equals("OK") || order.couponStep().equals("OK")
                            || order.paymentStep().equals("OK")) {
                        violations.add(where + ": a step of a cancelled order was never compensated");
                    }
                }
                default -> violations.add(where + " is not final");
            }
            // A cancel that overtook the order leaves a tombstone (RELEASED, no units); the late create is
            // then rejected. Which of the two replies the order applies first decides whether the step reads
            // REJECTED or COMPENSATED, so both fit a tombstone.
            boolean tombstone = reservation != null && reservation.status().equals("RELEASED") && reservation.skuIds().isEmpty();
            Set<String> reservationStates = switch (order.inventoryStep()) {
                case "OK" -> Set.of("RESERVED");
                case "REJECTED" -> tombstone ? Set.of("RELEASED") : Set.of("REJECTED");
                case "COMPENSATED" -> Set.of("RELEASED");
                // No answer by the deadline: whatever inventory did then, the deadline's cancellation undid it.
                case "TIMED_OUT" -> Set.of("RELEASED", "REJECTED");
                default -> Set.of();
            };
            String actualReservation = reservation == null ? "none" : reservation.status();
            if (!reservationStates.contains(actualReservation)) {
                violations.add(where + ": inventory says " + actualReservation);
            }
            if (order.couponStep().equals("OK") != holdsCoupon) {
                violations.add(where + ": coupon " + order.couponCode() + " is " + coupon);
            }
            // CANCELLED is coupon-service's tombstone of a cancel that overtook the order, as for inventory.
            Set<String> redemptions = switch (order.couponStep()) {
                case "OK" -> Set.of("REDEEMED");
                case "REJECTED" -> Set.of("REJECTED", "CANCELLED");
                case "COMPENSATED" -> Set.of("RELEASED", "CANCELLED");
                case "NOT_NEEDED" -> Set.of("none", "CANCELLED");
                case "TIMED_OUT" -> Set.of("none", "RELEASED", "REJECTED", "CANCELLED");
                default -> Set.of();
            };
            if (!redemptions.contains(redemption)) {
                violations.add(where + ": coupon-service says " + redemption);
            }
            if (!order.couponStep().equals("TIMED_OUT")
                    && order.couponStep().equals("NOT_NEEDED") != (order.couponCode() == null)) {
                violations.add(where + ": coupon step does not fit coupon code " + order.couponCode());
            }
            String expectedDecision = switch (order.riskStep()) {
                case "OK" -> "APPROVED";
                case "REJECTED" -> "REJECTED";
                default -> "none";
            };
            // A risk step that timed out may have been decided either way, once, or never.
            boolean fits = order.riskStep().equals("TIMED_OUT")
                    ? decisions.size() <= 1 : List.of(expectedDecision).equals(decisions);
            if (!fits) {
                violations.add(where + ": risk decided " + decisions);
            }
        }
        return violations;
    }

    private static boolean rejectedAtDeadline(Order order) {
        return order.rejectionReason() != null && order.rejectionReason().startsWith("deadline");
    }

    private List<String> plannedOutcomes() {
        List<String> violations = new ArrayList<>();
        for (IntentHistory intent : history.intents()) {
            List<Order> orders = ordersOf(intent);
            intent.intent().plan().expectedStatus().ifPresent(expected -> orders.stream()
                    .filter(order -> !order.status().equals(expected))
                    // Without a reply, an order meant to be confirmed is rightly rejected at its deadline.
                    .filter(order -> !(repliesLostOnPurpose && rejectedAtDeadline(order)))
                    .forEach(order -> violations.add(describe(intent) + " should be " + expected + " but order "
                            + order.id() + " is " + order.status() + " (" + order.rejectionReason() + ")")));
            Cancellation cancellation = intent.cancellation();
            if (cancellation != null) {
                // The answer to the cancellation says how the order ends: cancelled, or rejected before it came.
                String mustBe = cancellation.accepted() ? "CANCELLED" : cancellation.refusedAsFinal() ? "REJECTED" : null;
                if (mustBe == null && cancellation.status() / 100 == 4) {
                    violations.add(describe(intent) + ": the cancellation of its own order was refused with "
                            + cancellation.status());
                }
                if (mustBe != null) {
                    orders.stream().filter(order -> !order.status().equals(mustBe))
                            .forEach(order -> violations.add(describe(intent) + ": the cancellation was answered "
                                    + cancellation.status() + ", so order " + order.id() + " should be " + mustBe
                                    + " but is " + order.status() + " (" + order.rejectionReason() + ")"));
                }
            }
            if (intent.intent().plan().mustFail() && intent.outcome() != Outcome.FAILED) {
                violations.add(describe(intent) + " is an invalid request but ended " + intent.outcome());
            }
            // A valid request is never refused for good: faults may make its outcome unknown, not a final 4xx.
            if (!intent.intent().plan().mustFail() && intent.outcome() == Outcome.FAILED) {
                violations.add(describe(intent) + " is a valid request but was refused: " + intent.attempts());
            }
        }
        return violations;
    }

    private List<String> deadLetters() {
        return state.queues().stream().filter(SystemState.Queue::isDeadLetterQueue)
                .filter(queue -> queue.messages() > 0 || queue.unacknowledged() > 0)
                .map(queue -> "dead-letter queue " + queue.name() + " holds " + (queue.messages() + queue.unacknowledged())
                        + " messages").toList();
    }

    private List<String> faults() {
        List<String> violations = new ArrayList<>();
        evidence.faults().stream().filter(fault -> !fault.bit()).forEach(fault -> violations.add("fault did not bite: " + fault));
        requirements.stream().filter(requirement -> !requirement.isMetBy(evidence))
                .forEach(requirement -> violations.add("no evidence that " + requirement.description()));
        return violations;
    }

    private long replies(Order order, String eventType) {
        return repliesByOrder.getOrDefault(order.id(), List.of()).stream()
                .filter(row -> row.eventType().equals(eventType)).count();
    }

    private List<Order> ordersOf(IntentHistory intent) {
        return ordersByIntent.getOrDefault(new Intent(intent.intent().userId(), intent.intent().idempotencyKey()), List.of());
    }

    private static boolean sameUnits(Collection<Long> a, Collection<Long> b) {
        return counts(a).equals(counts(b));
    }

    private static Map<Long, Long> counts(Collection<Long> skus) {
        return skus.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    private static List<Long> ids(List<Order> orders) {
        return orders.stream().map(Order::id).toList();
    }

    private static String describe(IntentHistory intent) {
        return intent.outcome() + " intent #" + intent.intent().number() + " (" + intent.intent().plan() + ", user "
                + intent.intent().userId() + ")";
    }
}
