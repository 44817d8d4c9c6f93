package com.example.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.example.order.OrderStateMachine.State;
import com.example.order.OrderStateMachine.Transition;
import com.example.order.StepReply.Outcome;

class OrderStateMachineTests {

    private static final StepReply RESERVED = new StepReply(Step.INVENTORY, Outcome.SUCCEEDED, null);
    private static final StepReply OUT_OF_STOCK = new StepReply(Step.INVENTORY, Outcome.REJECTED, "inventory: none left");
    private static final StepReply STOCK_RELEASED = new StepReply(Step.INVENTORY, Outcome.RELEASED, null);
    private static final StepReply REDEEMED = new StepReply(Step.COUPON, Outcome.SUCCEEDED, null);
    private static final StepReply NO_COUPON = new StepReply(Step.COUPON, Outcome.NOT_NEEDED, null);
    private static final StepReply COUPON_RELEASED = new StepReply(Step.COUPON, Outcome.RELEASED, null);
    private static final StepReply APPROVED = new StepReply(Step.RISK, Outcome.SUCCEEDED, null);
    private static final StepReply RISKY = new StepReply(Step.RISK, Outcome.REJECTED, "risk: user 7 is blocked");
    private static final StepReply CHARGED = new StepReply(Step.PAYMENT, Outcome.SUCCEEDED, null);
    private static final StepReply DECLINED = new StepReply(Step.PAYMENT, Outcome.REJECTED, "payment: declined");
    private static final StepReply REFUNDED = new StepReply(Step.PAYMENT, Outcome.RELEASED, null);

    @Test
    void confirmsWhenEveryStepSucceeded() {
        State state = replay(RESERVED, REDEEMED);
        assertThat(state.status()).isEqualTo(OrderStatus.CREATED);

        state = OrderStateMachine.apply(state, APPROVED).next();

        assertThat(state.status()).isEqualTo(OrderStatus.CONFIRMED);
        assertThat(state.steps()).containsValues(StepStatus.OK).doesNotContainValue(StepStatus.PENDING);
        assertThat(replay(NO_COUPON, APPROVED, RESERVED).status()).isEqualTo(OrderStatus.CONFIRMED);
    }

    @Test
    void theFirstRejectionRejectsAndCancelsOnce() {
        State state = replay(REDEEMED);
        Transition rejected = OrderStateMachine.apply(state, OUT_OF_STOCK);

        assertThat(rejected.cancel()).isTrue();
        assertThat(rejected.next().status()).isEqualTo(OrderStatus.REJECTED);
        assertThat(rejected.next().rejectionReason()).isEqualTo("inventory: none left");

        Transition secondRejection = OrderStateMachine.apply(rejected.next(), RISKY);
        assertThat(secondRejection.cancel()).as("one cancellation per order").isFalse();
        assertThat(secondRejection.next().rejectionReason()).isEqualTo("inventory: none left");
        assertThat(secondRejection.next().step(Step.RISK)).isEqualTo(StepStatus.REJECTED);
    }

    @Test
    void successfulStepsAreCompensatedAfterARejection() {
        State state = replay(RESERVED, REDEEMED, RISKY, STOCK_RELEASED, COUPON_RELEASED);

        assertThat(state.status()).isEqualTo(OrderStatus.REJECTED);
        assertThat(state.step(Step.INVENTORY)).isEqualTo(StepStatus.COMPENSATED);
        assertThat(state.step(Step.COUPON)).isEqualTo(StepStatus.COMPENSATED);
        assertThat(state.step(Step.RISK)).isEqualTo(StepStatus.REJECTED);
    }

    @Test
    void aStepThatSucceedsAfterTheRejectionIsHeldUntilReleased() {
        State state = replay(OUT_OF_STOCK, REDEEMED);
        assertThat(state.step(Step.COUPON)).isEqualTo(StepStatus.OK);
        assertThat(state.status()).isEqualTo(OrderStatus.REJECTED);

        assertThat(OrderStateMachine.apply(state, COUPON_RELEASED).next().step(Step.COUPON))
                .isEqualTo(StepStatus.COMPENSATED);
    }

    @Test
    void lateAndDuplicateRepliesAreIgnoredWithAReason() {
        State confirmed = replay(RESERVED, NO_COUPON, APPROVED);

        Transition duplicate = OrderStateMachine.apply(confirmed, RESERVED);
        Transition late = OrderStateMachine.apply(confirmed, RISKY);

        assertThat(duplicate.applied()).isFalse();
        assertThat(duplicate.next()).isEqualTo(confirmed);
        assertThat(late.applied()).isFalse();
        assertThat(late.ignoredBecause()).contains("RISK is OK").contains("CONFIRMED");
        assertThat(OrderStateMachine.apply(replay(STOCK_RELEASED), RESERVED).applied()).isFalse();
    }

    @Test
    void everyOrderOfTheSameRepliesEndsInTheSameState() {
        List<StepReply> rejecting = List.of(RESERVED, REDEEMED, RISKY, STOCK_RELEASED, COUPON_RELEASED);
        List<StepReply> confirming = List.of(RESERVED, REDEEMED, APPROVED);

        assertThat(permutations(confirming)).extracting(p -> replay(p.toArray(StepReply[]::new)))
                .containsOnly(replay(confirming.toArray(StepReply[]::new)));
        // Releases only follow the cancellation, so shuffle the answers and put the releases last.
        List<List<StepReply>> answerOrders = permutations(rejecting.subList(0, 3));
        assertThat(answerOrders).allSatisfy(answers -> {
            List<StepReply> all = new ArrayList<>(answers);
            all.addAll(rejecting.subList(3, 5));
            all.addAll(answers);
            State end = replay(all.toArray(StepReply[]::new));
            assertThat(end.status()).isEqualTo(OrderStatus.REJECTED);
            assertThat(end.step(Step.INVENTORY)).isEqualTo(StepStatus.COMPENSATED);
            assertThat(end.step(Step.COUPON)).isEqualTo(StepStatus.COMPENSATED);
        });
    }

    @Test
    void anOrderThatCostsSomethingAsksForItsPaymentOnceAndOnlyThePaymentConfirmsIt() {
        State priced = priced(5397L);
        State approved = replay(priced, RESERVED, NO_COUPON);

        Transition lastYes = OrderStateMachine.apply(approved, APPROVED);
        assertThat(lastYes.requestPayment()).isTrue();
        assertThat(lastYes.cancel()).isFalse();
        assertThat(lastYes.next().status()).isEqualTo(OrderStatus.CREATED);
        assertThat(lastYes.next().step(Step.PAYMENT)).isEqualTo(StepStatus.PENDING);
        assertThat(OrderStateMachine.apply(lastYes.next(), APPROVED).requestPayment()).as("a duplicate").isFalse();

        State paid = OrderStateMachine.apply(lastYes.next(), CHARGED).next();
        assertThat(paid.status()).isEqualTo(OrderStatus.CONFIRMED);
        assertThat(paid.step(Step.PAYMENT)).isEqualTo(StepStatus.OK);
        assertThat(permutations(List.of(RESERVED, NO_COUPON, APPROVED))).allSatisfy(answers -> assertThat(
                answers.stream().filter(answer -> apply(priced, answers, answer).requestPayment()).count())
                .as("one PaymentRequested whatever the order of the answers").isEqualTo(1));
    }

    @Test
    void anOrderOfAmountZeroOrOfUnknownPriceNeedsNoPayment() {
        State free = replay(priced(0L), RESERVED, NO_COUPON, APPROVED);
        assertThat(free.status()).isEqualTo(OrderStatus.CONFIRMED);
        assertThat(free.step(Step.PAYMENT)).isEqualTo(StepStatus.NOT_NEEDED);
        assertThat(replay(RESERVED, NO_COUPON, APPROVED).step(Step.PAYMENT)).isEqualTo(StepStatus.NOT_NEEDED);
    }

    @Test
    void aFailedPaymentRejectsAndCancelsTheOrder() {
        Transition failed = OrderStateMachine.apply(replay(priced(100L), RESERVED, REDEEMED, APPROVED), DECLINED);

        assertThat(failed.cancel()).isTrue();
        assertThat(failed.next().status()).isEqualTo(OrderStatus.REJECTED);
        assertThat(failed.next().rejectionReason()).isEqualTo("payment: declined");
        assertThat(replay(failed.next(), STOCK_RELEASED, COUPON_RELEASED).steps()).containsEntry(Step.INVENTORY,
                StepStatus.COMPENSATED).containsEntry(Step.COUPON, StepStatus.COMPENSATED);
    }

    @Test
    void aCreatedOrConfirmedOrderIsCancelledOnceAndARefundedPaymentSaysSo() {
        State confirmed = replay(priced(100L), RESERVED, NO_COUPON, APPROVED, CHARGED);
        Transition cancelled = OrderStateMachine.cancel(confirmed);

        assertThat(cancelled.cancel()).isTrue();
        assertThat(cancelled.next().status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(cancelled.next().rejectionReason()).isNull();
        assertThat(OrderStateMachine.cancel(cancelled.next()).applied()).as("cancelled once").isFalse();
        State undone = replay(cancelled.next(), REFUNDED, STOCK_RELEASED);
        assertThat(undone.step(Step.PAYMENT)).isEqualTo(StepStatus.REFUNDED);
        assertThat(undone.step(Step.INVENTORY)).isEqualTo(StepStatus.COMPENSATED);
        assertThat(undone.status()).isEqualTo(OrderStatus.CANCELLED);

        assertThat(OrderStateMachine.cancel(replay(priced(100L), RESERVED)).next().status())
                .isEqualTo(OrderStatus.CANCELLED);
        assertThat(OrderStateMachine.cancel(replay(OUT_OF_STOCK)).applied()).as("a rejected order").isFalse();
    }

    @Test
    void aPaymentThatSucceedsAfterTheCancellationIsHeldUntilItIsRefunded() {
        State cancelled = OrderStateMachine.cancel(replay(priced(100L), RESERVED, NO_COUPON, APPROVED)).next();

        Transition late = OrderStateMachine.apply(cancelled, CHARGED);
        assertThat(late.requestPayment()).isFalse();
        assertThat(late.next().status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(late.next().step(Step.PAYMENT)).isEqualTo(StepStatus.OK);
        assertThat(OrderStateMachine.apply(late.next(), REFUNDED).next().step(Step.PAYMENT))
                .isEqualTo(StepStatus.REFUNDED);
    }

    @Test
    void aChargeAfterTheDeadlineIsHeldUntilRefunded() {
        State expired = OrderStateMachine.expire(replay(priced(100L), RESERVED, NO_COUPON, APPROVED), DEADLINE).next();
        assertThat(expired.step(Step.PAYMENT)).isEqualTo(StepStatus.TIMED_OUT);

        State charged = OrderStateMachine.apply(expired, CHARGED).next();
        assertThat(charged.status()).isEqualTo(OrderStatus.REJECTED);
        assertThat(charged.step(Step.PAYMENT)).isEqualTo(StepStatus.OK);
        assertThat(OrderStateMachine.apply(charged, REFUNDED).next().step(Step.PAYMENT)).isEqualTo(StepStatus.REFUNDED);
    }

    private static final String DEADLINE = "deadline: no answer within 10m";

    @Test
    void theDeadlineRejectsACreatedOrderOnceAndTimesOutTheStepsThatHaveNotAnswered() {
        Transition expired = OrderStateMachine.expire(replay(RESERVED, NO_COUPON), DEADLINE);

        assertThat(expired.applied()).isTrue();
        assertThat(expired.cancel()).isTrue();
        assertThat(expired.next().status()).isEqualTo(OrderStatus.REJECTED);
        assertThat(expired.next().rejectionReason()).isEqualTo(DEADLINE);
        assertThat(expired.next().step(Step.INVENTORY)).as("succeeded: undone by the cancellation").isEqualTo(StepStatus.OK);
        assertThat(expired.next().step(Step.COUPON)).isEqualTo(StepStatus.NOT_NEEDED);
        assertThat(expired.next().step(Step.RISK)).isEqualTo(StepStatus.TIMED_OUT);

        Transition again = OrderStateMachine.expire(expired.next(), DEADLINE);
        assertThat(again.applied()).isFalse();
        assertThat(again.cancel()).isFalse();
        assertThat(again.next()).isEqualTo(expired.next());
    }

    @Test
    void theDeadlineOfAFinalOrderChangesNothing() {
        State confirmed = replay(RESERVED, NO_COUPON, APPROVED);
        State rejected = replay(OUT_OF_STOCK);

        assertThat(OrderStateMachine.expire(confirmed, DEADLINE).applied()).isFalse();
        assertThat(OrderStateMachine.expire(confirmed, DEADLINE).next()).isEqualTo(confirmed);
        assertThat(OrderStateMachine.expire(rejected, DEADLINE).cancel()).isFalse();
        assertThat(OrderStateMachine.expire(rejected, DEADLINE).next().rejectionReason()).isEqualTo("inventory: none left");
    }

    @Test
    void aStepThatAnswersAfterTheDeadlineMovesButTheOrderStaysRejected() {
        State expired = OrderStateMachine.expire(replay(REDEEMED), DEADLINE).next();

        Transition lateSuccess = OrderStateMachine.apply(expired, RESERVED);
        assertThat(lateSuccess.cancel()).isFalse();
        assertThat(lateSuccess.next().status()).isEqualTo(OrderStatus.REJECTED);
        assertThat(lateSuccess.next().step(Step.INVENTORY)).as("held until the cancellation releases it")
                .isEqualTo(StepStatus.OK);
        assertThat(OrderStateMachine.apply(lateSuccess.next(), STOCK_RELEASED).next().step(Step.INVENTORY))
                .isEqualTo(StepStatus.COMPENSATED);

        Transition lateRejection = OrderStateMachine.apply(expired, RISKY);
        assertThat(lateRejection.cancel()).as("one cancellation per order").isFalse();
        assertThat(lateRejection.next().step(Step.RISK)).isEqualTo(StepStatus.REJECTED);
        assertThat(lateRejection.next().rejectionReason()).isEqualTo(DEADLINE);

        State releasedFirst = OrderStateMachine.apply(expired, STOCK_RELEASED).next();
        assertThat(releasedFirst.step(Step.INVENTORY)).isEqualTo(StepStatus.COMPENSATED);
        assertThat(OrderStateMachine.apply(releasedFirst, RESERVED).applied()).as("nothing is held any more").isFalse();
    }

    @Test
    void everyOrderOfLateAnswersAndReleasesEndsInTheSameStateAfterTheDeadline() {
        State expired = OrderStateMachine.expire(replay(), DEADLINE).next();
        List<StepReply> late = List.of(RESERVED, REDEEMED, APPROVED, STOCK_RELEASED, COUPON_RELEASED);

        assertThat(permutations(late)).allSatisfy(replies -> {
            State end = expired;
            for (StepReply reply : replies) {
                end = OrderStateMachine.apply(end, reply).next();
            }
            assertThat(end.status()).isEqualTo(OrderStatus.REJECTED);
            assertThat(end.rejectionReason()).isEqualTo(DEADLINE);
            assertThat(end.step(Step.INVENTORY)).isEqualTo(StepStatus.COMPENSATED);
            assertThat(end.step(Step.COUPON)).isEqualTo(StepStatus.COMPENSATED);
            assertThat(end.step(Step.RISK)).as("risk holds nothing to undo").isEqualTo(StepStatus.OK);
        });
    }

    private static State replay(StepReply... replies) {
        return replay(priced(null), replies);
    }

    private static State replay(State from, StepReply... replies) {
        State state = from;
        for (StepReply reply : replies) {
            state = OrderStateMachine.apply(state, reply).next();
        }
        return state;
    }

    /** The transition {@code answer} makes after the answers before it in {@code answers}. */
    private static Transition apply(State from, List<StepReply> answers, StepReply answer) {
        return OrderStateMachine.apply(replay(from, answers.subList(0, answers.indexOf(answer))
                .toArray(StepReply[]::new)), answer);
    }

    /** A new order whose price is known to be {@code amountCents} (null: replies without prices). */
    private static State priced(Long amountCents) {
        Map<Step, StepStatus> steps = new EnumMap<>(Step.class);
        for (Step step : Step.values()) {
            steps.put(step, StepStatus.PENDING);
        }
        return new State(OrderStatus.CREATED, steps, null, amountCents);
    }

    private static <T> List<List<T>> permutations(List<T> items) {
        if (items.isEmpty()) {
            return List.of(List.of());
        }
        List<List<T>> result = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            List<T> rest = new ArrayList<>(items);
            T head = rest.remove(i);
            for (List<T> tail : permutations(rest)) {
                List<T> permutation = new ArrayList<>();
                permutation.add(head);
                permutation.addAll(tail);
                result.add(permutation);
            }
        }
        return result;
    }
}
