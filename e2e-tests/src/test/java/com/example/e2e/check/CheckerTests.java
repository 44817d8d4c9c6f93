package com.example.e2e.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.example.e2e.check.SystemState.Coupon;
import com.example.e2e.check.SystemState.Order;
import com.example.e2e.check.SystemState.OutboxRow;
import com.example.e2e.check.SystemState.Queue;
import com.example.e2e.check.SystemState.Reservation;
import com.example.e2e.check.SystemState.Stock;
import com.example.e2e.nemesis.Fault;
import com.example.e2e.nemesis.FaultKind;
import com.example.e2e.topology.Service;
import com.example.e2e.workload.Attempt;
import com.example.e2e.workload.Cancellation;
import com.example.e2e.workload.IntentHistory;
import com.example.e2e.workload.Outcome;

/**
 * The checker against hand-made states: a healthy run passes every invariant, and each kind of damage
 * the e2e suite exists to catch (a lost event, a double effect, a duplicate order, a negative stock, a
 * stuck outbox row, a fault that did not bite) is reported by the invariant that covers it, and only there.
 */
class CheckerTests {

    private final HealthyRun run = new HealthyRun();

    @Test
    void aHealthyRunPassesEveryInvariant() {
        List<Verdict> verdicts = run.check();

        assertThat(verdicts).hasSize(Invariant.values().length).allSatisfy(verdict -> assertThat(verdict.passed())
                .as(verdict.toString()).isTrue());
    }

    @Test
    void aLostEventIsReported() {
        UUID lost = run.outbox.get(Service.ORDER).get(0).id();
        run.processed.get(Service.COUPON).remove(lost);

        assertThat(failed()).containsExactly(Invariant.CONSUMERS_SAW_EXACTLY_PUBLISHED);
        assertThat(violations(Invariant.CONSUMERS_SAW_EXACTLY_PUBLISHED))
                .containsExactly("coupon-service never applied OrderCreated " + lost + " (lost)");
    }

    @Test
    void anEventAppliedThatWasNeverPublishedIsReported() {
        UUID stray = UUID.randomUUID();
        run.processed.get(Service.RISK).put(stray, "OrderCreated");

        assertThat(failed()).containsExactly(Invariant.CONSUMERS_SAW_EXACTLY_PUBLISHED);
    }

    @Test
    void aDoubleReservationIsReported() {
        // The same order reserved twice: the units leave available twice, inventory answers twice.
        run.stock.put(run.plentySku, new Stock(run.plentySku, 5_000 - 4, 2));
        run.stock.put(run.otherSku, new Stock(run.otherSku, 5_000 - 2, 1));
        run.published(Service.INVENTORY, 101, "InventoryReserved", Service.ORDER);

        assertThat(failed()).containsExactly(Invariant.INVENTORY_CONSERVED, Invariant.RESERVATIONS_MATCH_ORDERS);
        assertThat(violations(Invariant.INVENTORY_CONSERVED))
                .contains("sku " + run.plentySku + ": initial 5000 != available 4996 + held by reservations 2");
    }

    @Test
    void aDiscountAppliedTwiceIsReported() {
        run.amounts.put(101L, 4863L);

        // The provider charged what the order should cost, not what it says it costs: both are reported.
        assertThat(failed()).containsExactly(Invariant.ORDER_AMOUNTS, Invariant.MONEY_MOVED_ONCE);
        assertThat(violations(Invariant.ORDER_AMOUNTS)).containsExactly("CONFIRMED order 101 costs 4863, but its units "
                + "[1001, 1001, 1002] cost 6004 less 10%: 5403");
    }

    @Test
    void aConfirmedOrderWithoutAnAmountOrWithAUnitMissedIsReported() {
        run.amounts.remove(101L);
        // Without an amount, a paid order is also inconsistent: only an order that costs nothing skips payment.
        assertThat(failed()).containsExactly(Invariant.ORDER_AMOUNTS, Invariant.MONEY_MOVED_ONCE,
                Invariant.ORDERS_FINAL_AND_CONSISTENT);

        run.amounts.put(101L, (2_001L + 2_002L) * 90 / 100);
        assertThat(violations(Invariant.ORDER_AMOUNTS)).containsExactly("CONFIRMED order 101 costs 3602, but its units "
                + "[1001, 1001, 1002] cost 6004 less 10%: 5403");
    }

    @Test
    void aCouponHeldByTwoOrdersIsReported() {
        run.coupons.put(run.coupon, new Coupon(run.coupon, List.of(101L, 102L)));

        assertThat(failed()).contains(Invariant.COUPONS_HELD_ONCE);
        assertThat(violations(Invariant.COUPONS_HELD_ONCE)).contains("coupon " + run.coupon + " is held by 2 orders [101, 102]");
    }

    @Test
    void aSecondRiskAssessmentIsReported() {
        run.assessments.put(101L, List.of("APPROVED", "APPROVED"));
        run.published(Service.RISK, 101, "RiskApproved", Service.ORDER);

        assertThat(failed()).contains(Invariant.ONE_RISK_ASSESSMENT);
    }

    @Test
    void aDuplicateOrderIsReported() {
        Order first = run.order(101);
        run.orders.add(new Order(103, first.userId(), first.idempotencyKey(), "CONFIRMED", "OK", "OK", "OK",
                "OK", first.couponCode(), null, first.skuIds()));

        List<Invariant> failed = failed();

        assertThat(failed).contains(Invariant.ACKED_INTENT_HAS_ONE_ORDER, Invariant.NO_DUPLICATE_ORDERS);
        assertThat(violations(Invariant.NO_DUPLICATE_ORDERS)).anySatisfy(violation -> assertThat(violation)
                .contains("has 2 orders [101, 103]"));
    }

    @Test
    void anOrderForARefusedOrUnknownIntentIsJudgedByItsOutcome() {
        IntentHistory refused = run.intents.get(2);
        run.orders.add(new Order(104, refused.intent().userId(), refused.intent().idempotencyKey(), "REJECTED", "REJECTED",
                "REJECTED", "OK", "PENDING", refused.intent().couponCode(), "bad", refused.intent().skuIds()));

        assertThat(failed()).contains(Invariant.FAILED_INTENT_HAS_NO_ORDER);
    }

    @Test
    void anOrderTheClientWasNotToldAboutIsReported() {
        IntentHistory confirmed = run.intents.get(0);
        run.intents.set(0, new IntentHistory(confirmed.intent(), List.of(new Attempt(Instant.now(), Duration.ZERO, 201,
                null, false, 999, "localhost:1")), Outcome.ACKED));

        assertThat(failed()).containsExactly(Invariant.ACKED_INTENT_HAS_ONE_ORDER);
    }

    @Test
    void aNegativeStockIsReported() {
        run.stock.put(run.emptySku, new Stock(run.emptySku, -1, 1));

        assertThat(failed()).containsExactly(Invariant.INVENTORY_CONSERVED);
        assertThat(violations(Invariant.INVENTORY_CONSERVED))
                .contains("sku " + run.emptySku + " is negative: available -1, reserved 1");
    }

    @Test
    void aStuckOutboxRowIsReported() {
        OutboxRow sent = run.outbox.get(Service.INVENTORY).get(0);
        List<OutboxRow> rows = new ArrayList<>(run.outbox.get(Service.INVENTORY));
        rows.set(0, new OutboxRow(sent.id(), sent.aggregateType(), sent.aggregateId(), sent.eventType(), sent.exchange(),
                sent.orderId(), false, false));
        run.outbox.put(Service.INVENTORY, rows);
        // Never published, so never applied: the checker must not call it lost, only stuck.
        run.processed.get(Service.ORDER).remove(sent.id());

        assertThat(failed()).containsExactly(Invariant.OUTBOXES_DRAINED);
        assertThat(violations(Invariant.OUTBOXES_DRAINED)).containsExactly("inventory-service outbox row " + sent.id()
                + " (InventoryReserved of order 101) is unsent");
    }

    @Test
    void aParkedOrderEventIsReported() {
        OutboxRow created = run.outbox.get(Service.ORDER).get(0);
        List<OutboxRow> rows = new ArrayList<>(run.outbox.get(Service.ORDER));
        rows.set(0, new OutboxRow(created.id(), created.aggregateType(), created.aggregateId(), created.eventType(),
                created.exchange(), created.orderId(), false, true));
        run.outbox.put(Service.ORDER, rows);
        run.processed.values().forEach(ids -> ids.remove(created.id()));

        assertThat(failed()).contains(Invariant.OUTBOXES_DRAINED, Invariant.ORDER_EVENTS_ONCE);
    }

    @Test
    void aRejectedOrderThatStillHoldsStockIsReported() {
        Order rejected = run.order(102);
        run.reservations.put(102L, new Reservation(102, "RESERVED", rejected.skuIds()));
        run.stock.put(run.plentySku, new Stock(run.plentySku, 5_000 - 3, 3));
        run.stock.put(run.emptySku, new Stock(run.emptySku, -1, 1));

        assertThat(failed()).contains(Invariant.RESERVATIONS_MATCH_ORDERS, Invariant.ORDERS_FINAL_AND_CONSISTENT);
    }

    @Test
    void anOrderLeftWaitingIsReported() {
        Order confirmed = run.order(101);
        run.orders.set(0, new Order(101, confirmed.userId(), confirmed.idempotencyKey(), "CREATED", "OK", "OK", "PENDING",
                "PENDING", confirmed.couponCode(), null, confirmed.skuIds()));

        assertThat(failed()).contains(Invariant.QUIESCENT, Invariant.ORDERS_FINAL_AND_CONSISTENT, Invariant.PLANNED_OUTCOMES);
    }

    @Test
    void aCancelThatOvertookTheOrderLeavesATombstoneThatFitsARejectedStep() {
        // Order 102 was cancelled before inventory saw it: a tombstone, and the late create rejected.
        run.reservations.put(102L, new Reservation(102, "RELEASED", List.of()));

        assertThat(failed()).isEmpty();
    }

    @Test
    void aReleasedReservationThatHeldUnitsDoesNotFitARejectedStep() {
        Order rejected = run.order(102);
        run.reservations.put(102L, new Reservation(102, "RELEASED", rejected.skuIds()));

        assertThat(failed()).containsExactly(Invariant.ORDERS_FINAL_AND_CONSISTENT);
    }

    @Test
    void aMessageInADeadLetterQueueIsReported() {
        run.queues.set(1, new Queue("order.events.inventory-service.dlq", 1, 0));

        assertThat(failed()).containsExactly(Invariant.DLQS_EMPTY);
    }

    @Test
    void aSystemThatNeverWentQuietIsReported() {
        run.quiet = new Quiet(false, Duration.ofMinutes(3), "2 unsent in order-service");

        assertThat(failed()).containsExactly(Invariant.QUIESCENT);
    }

    @Test
    void aFaultThatDidNotBiteFailsTheScenario() {
        run.faults.add(new Fault(FaultKind.CRASH_POINT, "risk-service-2", "consumer.before-commit", Instant.now(),
                Duration.ofMinutes(1), false, "exit code 137, crash point NOT logged"));

        assertThat(failed()).containsExactly(Invariant.FAULTS_BIT);
    }

    @Test
    void aRequiredWindowThatWasNotExercisedFailsTheScenario() {
        run.duplicates.put(Service.RISK, 0L);
        run.requirements.add(Requirement.duplicatesSuppressedIn(Service.ours()));
        run.requirements.add(Requirement.crashedAt(Service.RISK, "consumer.after-commit-before-ack"));

        assertThat(failed()).containsExactly(Invariant.FAULTS_BIT);
        assertThat(violations(Invariant.FAULTS_BIT)).hasSize(2);
    }

    @Test
    void requirementsThatTheEvidenceMeetsPass() {
        run.requirements.add(Requirement.fault(FaultKind.SERVICE_KILL));
        run.requirements.add(Requirement.duplicatesSuppressedIn(Service.ours()));
        run.requirements.add(Requirement.replaysAfterRetry());
        run.requirements.add(Requirement.retriedIntents());

        assertThat(failed()).isEmpty();
    }

    @Test
    void aPlannedConfirmationThatWasRejectedIsReported() {
        Order confirmed = run.order(101);
        run.orders.set(0, new Order(101, confirmed.userId(), confirmed.idempotencyKey(), "REJECTED", "COMPENSATED",
                "COMPENSATED", "REJECTED", "PENDING", confirmed.couponCode(), "blocked", confirmed.skuIds()));
        neverPaid(101);
        run.reservations.put(101L, new Reservation(101, "RELEASED", confirmed.skuIds()));
        run.stock.put(run.plentySku, new Stock(run.plentySku, 5_000, 0));
        run.stock.put(run.otherSku, new Stock(run.otherSku, 5_000, 0));
        run.coupons.put(run.coupon, new Coupon(run.coupon, List.of()));
        run.redemptions.put(101L, "RELEASED");
        run.assessments.put(101L, List.of("REJECTED"));
        UUID cancelled = run.published(Service.ORDER, 101, "OrderCancelled", Service.INVENTORY, Service.COUPON,
                Service.PAYMENT);
        run.published(Service.INVENTORY, 101, "InventoryReleased", Service.ORDER);
        run.published(Service.COUPON, 101, "CouponReleased", Service.ORDER);

        assertThat(cancelled).isNotNull();
        assertThat(failed()).containsExactly(Invariant.PLANNED_OUTCOMES);
    }

    /** The answer to a user's cancellation decides how its order must end: 200 cancelled, 409 rejected first. */
    @Test
    void anOrderThatDoesNotEndAsItsCancellationWasAnsweredIsReported() {
        IntentHistory confirmed = run.intents.get(0);
        run.intents.set(0, confirmed.cancelled(new Cancellation(200, 1)));
        assertThat(failed()).containsExactly(Invariant.PLANNED_OUTCOMES);
        assertThat(violations(Invariant.PLANNED_OUTCOMES)).singleElement().asString()
                .endsWith("the cancellation was answered 200, so order 101 should be CANCELLED but is CONFIRMED (null)");

        run.intents.set(0, confirmed.cancelled(new Cancellation(409, 2)));
        assertThat(violations(Invariant.PLANNED_OUTCOMES)).singleElement().asString()
                .endsWith("so order 101 should be REJECTED but is CONFIRMED (null)");

        run.intents.set(0, confirmed.cancelled(new Cancellation(403, 1)));
        assertThat(violations(Invariant.PLANNED_OUTCOMES)).singleElement().asString()
                .endsWith("the cancellation of its own order was refused with 403");

        // No answer at all (or a 5xx to the last request): either end is right.
        run.intents.set(0, confirmed.cancelled(new Cancellation(0, 5)));
        assertThat(failed()).isEmpty();
    }

    @Test
    void aValidRequestRefusedForGoodIsReported() {
        IntentHistory unknown = run.intents.get(3);
        run.intents.set(3, new IntentHistory(unknown.intent(), unknown.attempts(), Outcome.FAILED));

        assertThat(failed()).containsExactly(Invariant.PLANNED_OUTCOMES);
    }

    /** Order 101 rejected at its deadline: risk never answered, inventory and coupon undone by the cancellation. */
    private void rejectAtDeadline() {
        Order confirmed = run.order(101);
        run.orders.set(0, new Order(101, confirmed.userId(), confirmed.idempotencyKey(), "REJECTED", "COMPENSATED",
                "COMPENSATED", "TIMED_OUT", "PENDING", confirmed.couponCode(), "deadline: no answer from risk within 20s",
                confirmed.skuIds()));
        neverPaid(101);
        run.reservations.put(101L, new Reservation(101, "RELEASED", confirmed.skuIds()));
        run.stock.put(run.plentySku, new Stock(run.plentySku, 5_000, 0));
        run.stock.put(run.otherSku, new Stock(run.otherSku, 5_000, 0));
        run.coupons.put(run.coupon, new Coupon(run.coupon, List.of()));
        run.redemptions.put(101L, "RELEASED");
        run.published(Service.ORDER, 101, "OrderCancelled", Service.INVENTORY, Service.COUPON,
                Service.PAYMENT);
        run.published(Service.INVENTORY, 101, "InventoryReleased", Service.ORDER);
        run.published(Service.COUPON, 101, "CouponReleased", Service.ORDER);
    }

    @Test
    void anOrderRejectedAtItsDeadlineIsConsistentButAPlannedConfirmationOnlyWhenItsReplyWasLostOnPurpose() {
        rejectAtDeadline();
        assertThat(failed()).containsExactly(Invariant.PLANNED_OUTCOMES);

        run.faults.add(new Fault(FaultKind.REPLY_DEAD_LETTERED, "order-service", "risk.events.order-service",
                Instant.now(), Duration.ofSeconds(30), true, "1 reply dead-lettered, re-driven"));
        assertThat(failed()).isEmpty();
    }

    @Test
    void aTimedOutStepOfAnOrderNotRejectedAtItsDeadlineIsReported() {
        rejectAtDeadline();
        Order rejected = run.order(101);
        run.orders.set(0, new Order(101, rejected.userId(), rejected.idempotencyKey(), "REJECTED", "COMPENSATED",
                "COMPENSATED", "TIMED_OUT", "PENDING", rejected.couponCode(), "blocked", rejected.skuIds()));

        assertThat(failed()).contains(Invariant.ORDERS_FINAL_AND_CONSISTENT);
        assertThat(violations(Invariant.ORDERS_FINAL_AND_CONSISTENT)).anySatisfy(violation -> assertThat(violation)
                .contains("a step timed out, but the order was not rejected at its deadline"));
    }

    @Test
    void aDoubleChargeIsReported() {
        run.charges.add(new SystemState.Charge("ch_101b", "order-101", 5403, "succeeded"));

        assertThat(failed()).containsExactly(Invariant.MONEY_MOVED_ONCE);
        assertThat(violations(Invariant.MONEY_MOVED_ONCE)).contains(
                "CONFIRMED order 101 was charged 2 times: [ch_101, ch_101b]",
                "the provider kept 10806 cents (charged 10806, refunded 0), the confirmed orders cost 5403");
    }

    @Test
    void aChargeWithoutAnOrderIsReported() {
        run.charges.add(new SystemState.Charge("ch_x", "order-999", 100, "succeeded"));
        run.charges.add(new SystemState.Charge("ch_y", "someone else", 100, "declined"));

        assertThat(failed()).containsExactly(Invariant.MONEY_MOVED_ONCE);
        assertThat(violations(Invariant.MONEY_MOVED_ONCE)).contains(
                "charge ch_x (order-999, 100 cents, succeeded) pays no order",
                "charge ch_y (someone else, 100 cents, declined) pays no order");
    }

    @Test
    void aMissingRefundIsReported() {
        // Order 102 was rejected, yet charged, and never refunded.
        run.charges.add(new SystemState.Charge("ch_102", "order-102", 2002, "succeeded"));

        assertThat(failed()).contains(Invariant.MONEY_MOVED_ONCE);
        assertThat(violations(Invariant.MONEY_MOVED_ONCE)).contains(
                "REJECTED order 102 (out of stock: sku 1099) keeps the unrefunded charge ch_102 of 2002 cents");

        run.refunds.add(new SystemState.Refund("re_102", "ch_102", 2002));
        run.payments.put(102L, "REFUNDED");
        assertThat(failed()).isEmpty();
    }

    @Test
    void aRefundOfAConfirmedOrderOrOfPartOfAChargeOrTwiceIsReported() {
        run.refunds.add(new SystemState.Refund("re_1", "ch_101", 5403));
        assertThat(violations(Invariant.MONEY_MOVED_ONCE)).contains(
                "CONFIRMED order 101 costs 5403 cents but keeps the charges []");

        run.refunds.add(new SystemState.Refund("re_2", "ch_101", 3));
        assertThat(violations(Invariant.MONEY_MOVED_ONCE)).contains("charge ch_101 was refunded 2 times",
                "refund re_2 gave back 3 of charge ch_101's 5403 cents");
    }

    @Test
    void aConfirmedOrderChargedAnotherAmountIsReported() {
        run.charges.set(0, new SystemState.Charge("ch_101", "order-101", 5404, "succeeded"));

        assertThat(violations(Invariant.MONEY_MOVED_ONCE)).contains(
                "CONFIRMED order 101 costs 5403 cents but keeps the charges [ch_101:5404]");
    }

    @Test
    void aPaymentLeftProcessingOrRecordedAgainstTheLedgerIsReported() {
        run.payments.put(101L, "PROCESSING");
        assertThat(failed()).containsExactly(Invariant.PAYMENTS_SETTLED);
        assertThat(violations(Invariant.PAYMENTS_SETTLED)).containsExactly("the payment of order 101 is left PROCESSING");

        run.payments.put(101L, "REFUNDED");
        assertThat(violations(Invariant.PAYMENTS_SETTLED)).containsExactly(
                "the payment of order 101 is REFUNDED, but the provider refunded nothing for it");
    }

    @Test
    void aConfirmedOrderThatAskedForNoPaymentOrTwiceIsReported() {
        run.published(Service.ORDER, 101, "PaymentRequested", Service.PAYMENT);

        assertThat(failed()).containsExactly(Invariant.ORDER_EVENTS_ONCE);
        assertThat(violations(Invariant.ORDER_EVENTS_ONCE)).containsExactly(
                "CONFIRMED order 101 (payment OK) has 2 PaymentRequested outbox rows");
    }

    /** The order was rejected before it asked for its payment: no PaymentRequested, no charge, a tombstone. */
    private void neverPaid(long orderId) {
        for (Service service : List.of(Service.ORDER, Service.PAYMENT)) {
            run.outbox.get(service).removeIf(row -> row.orderId() == orderId && row.eventType().startsWith("Payment"));
        }
        run.processed.get(Service.PAYMENT).values().removeIf(type -> type.equals("PaymentRequested"));
        run.processed.get(Service.ORDER).values().removeIf(type -> type.equals("PaymentSucceeded"));
        run.charges.removeIf(charge -> charge.reference().equals("order-" + orderId));
        run.payments.put(orderId, "FAILED");
    }

    private List<Invariant> failed() {
        return run.check().stream().filter(verdict -> !verdict.passed()).map(Verdict::invariant).toList();
    }

    private List<String> violations(Invariant invariant) {
        return run.check().stream().filter(verdict -> verdict.invariant() == invariant).findFirst().orElseThrow()
                .violations();
    }
}
