package com.example.order;

import static com.example.order.OrderStatus.CANCELLED;
import static com.example.order.OrderStatus.CONFIRMED;
import static com.example.order.OrderStatus.CREATED;
import static com.example.order.OrderStatus.REJECTED;
import static com.example.order.StepReply.Outcome.NOT_NEEDED;
import static com.example.order.StepReply.Outcome.RELEASED;
import static com.example.order.StepReply.Outcome.SUCCEEDED;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The order's state machine, as a table: for the status of the order, the state of the step a reply
 * is about and the reply's outcome, the new state of the step, whether the order becomes final, and
 * whether the order must be cancelled (OrderCancelled undoes every step that succeeded or will).
 * Anything the table does not list is a late or illegal reply: recorded and ignored, never an error.
 *
 * <p>Payment is the last step: when inventory, coupon and risk have all said yes, the order asks for its payment
 * ({@link Transition#requestPayment()}, a PaymentRequested) or, when it costs nothing, marks payment NOT_NEEDED and
 * is confirmed. Only PaymentSucceeded confirms an order that costs something; PaymentFailed rejects it like any
 * other step's refusal. The payment's compensation is a refund: a released payment is REFUNDED.
 *
 * <p>The owner (or an operator) may cancel a CREATED or CONFIRMED order ({@link #cancel}): it becomes CANCELLED
 * and takes late answers as a rejected order does.
 *
 * <p>The order's deadline is not a reply but moves the order the same way: {@link #expire} rejects an order
 * still CREATED, marks its unanswered steps TIMED_OUT and cancels it. A TIMED_OUT step then takes a late
 * answer as a PENDING step of a rejected order does: a late success is held until the OrderCancelled
 * already sent releases it, and the order's status never changes again.
 *
 * <p>Replies may arrive in any order and more than once (each event id is applied once by the inbox;
 * a different event with the same meaning finds its step no longer PENDING and is ignored).
 */
public final class OrderStateMachine {

    /** One row of the table. {@code orderStatuses} empty means any status. */
    private record Rule(StepReply.Outcome outcome, StepStatus from, Set<OrderStatus> orderStatuses, StepStatus to,
            Effect effect) {
    }

    /** What a rule does to the order besides moving its step. */
    private enum Effect {
        /** Ask for the payment when the first three steps have succeeded; confirm when every step has. */
        CONFIRM_WHEN_COMPLETE,
        /** Reject the order and cancel it, so that finished steps are compensated. */
        REJECT_AND_CANCEL,
        /** Only the step moves. */
        NONE
    }

    private static final Set<OrderStatus> ANY = Set.of();
    /** Final, and cancelled by the one OrderCancelled already sent: whatever succeeds now is undone by it. */
    private static final Set<OrderStatus> CLOSED = Set.of(REJECTED, CANCELLED);

    // @formatter:off
    private static final List<Rule> TABLE = List.of(
        //       reply       step from            order is          step to                effect
        new Rule(SUCCEEDED,  StepStatus.PENDING,  Set.of(CREATED),  StepStatus.OK,         Effect.CONFIRM_WHEN_COMPLETE),
        // Succeeded after the order was rejected or cancelled: held until the OrderCancelled already sent releases it.
        new Rule(SUCCEEDED,  StepStatus.PENDING,  CLOSED,           StepStatus.OK,         Effect.NONE),
        new Rule(NOT_NEEDED, StepStatus.PENDING,  Set.of(CREATED),  StepStatus.NOT_NEEDED, Effect.CONFIRM_WHEN_COMPLETE),
        new Rule(NOT_NEEDED, StepStatus.PENDING,  CLOSED,           StepStatus.NOT_NEEDED, Effect.NONE),
        new Rule(StepReply.Outcome.REJECTED, StepStatus.PENDING, Set.of(CREATED),  StepStatus.REJECTED, Effect.REJECT_AND_CANCEL),
        new Rule(StepReply.Outcome.REJECTED, StepStatus.PENDING, CLOSED,           StepStatus.REJECTED, Effect.NONE),
        new Rule(RELEASED,   StepStatus.OK,       ANY,              StepStatus.COMPENSATED, Effect.NONE),
        // Released before the success was seen (the cancel overtook the create at the service): nothing is held.
        new Rule(RELEASED,   StepStatus.PENDING,  ANY,              StepStatus.COMPENSATED, Effect.NONE),
        // Answers after the deadline: only a final order has TIMED_OUT steps, and its status stays as it is.
        // Succeeded too late: held until the deadline's OrderCancelled releases it.
        new Rule(SUCCEEDED,  StepStatus.TIMED_OUT, ANY,             StepStatus.OK,         Effect.NONE),
        new Rule(NOT_NEEDED, StepStatus.TIMED_OUT, ANY,             StepStatus.NOT_NEEDED, Effect.NONE),
        new Rule(StepReply.Outcome.REJECTED, StepStatus.TIMED_OUT, ANY, StepStatus.REJECTED, Effect.NONE),
        // Released before the late success was seen: nothing is held.
        new Rule(RELEASED,   StepStatus.TIMED_OUT, ANY,             StepStatus.COMPENSATED, Effect.NONE));
    // @formatter:on

    private OrderStateMachine() {
    }

    /**
     * The state of an order that the table reads and writes.
     *
     * @param amountCents what the order costs, as far as it is known (null until inventory and coupon answered)
     */
    public record State(OrderStatus status, Map<Step, StepStatus> steps, String rejectionReason, Long amountCents) {

        public State {
            steps = Map.copyOf(steps);
        }

        public static State of(Order order) {
            return of(order, Pricing.NONE);
        }

        /** The order's state with what {@code reply} says about its price. */
        public static State of(Order order, Pricing reply) {
            Map<Step, StepStatus> steps = new EnumMap<>(Step.class);
            steps.put(Step.INVENTORY, order.inventoryStep());
            steps.put(Step.COUPON, order.couponStep());
            steps.put(Step.RISK, order.riskStep());
            steps.put(Step.PAYMENT, order.paymentStep());
            return new State(order.status(), steps, order.rejectionReason(),
                    reply.over(order.pricing()).amountCents());
        }

        public StepStatus step(Step step) {
            return steps.get(step);
        }

        State withStep(Step step, StepStatus to) {
            Map<Step, StepStatus> moved = new EnumMap<>(steps);
            moved.put(step, to);
            return new State(status, moved, rejectionReason, amountCents);
        }

        State withStatus(OrderStatus next, String reason) {
            return new State(next, steps, reason, amountCents);
        }

        /** The step was asked and has not answered: every PENDING step but a payment not asked for yet. */
        public boolean waitingFor(Step step) {
            return step(step) == StepStatus.PENDING && (step != Step.PAYMENT || readyToPay());
        }

        /** Inventory, coupon and risk have said yes: what remains is the payment. */
        boolean readyToPay() {
            return step(Step.INVENTORY) == StepStatus.OK && step(Step.RISK) == StepStatus.OK && done(Step.COUPON);
        }

        boolean complete() {
            return readyToPay() && done(Step.PAYMENT);
        }

        private boolean done(Step step) {
            return step(step) == StepStatus.OK || step(step) == StepStatus.NOT_NEEDED;
        }
    }

    /**
     * The outcome of applying a reply.
     *
     * @param next the new state (the same state when ignored)
     * @param cancel true when the order was just rejected or cancelled and an OrderCancelled must be emitted
     * @param requestPayment true when the order must now be charged its {@code amountCents}: a PaymentRequested
     * @param ignoredBecause why the reply changed nothing, or null when it was applied
     */
    public record Transition(State next, boolean cancel, boolean requestPayment, String ignoredBecause) {

        public boolean applied() {
            return ignoredBecause == null;
        }

        static Transition ignored(State state, String because) {
            return new Transition(state, false, false, because);
        }

        static Transition moved(State next) {
            return new Transition(next, false, false, null);
        }

        static Transition cancelled(State next) {
            return new Transition(next, true, false, null);
        }
    }

    /**
     * The deadline of an order has passed: a CREATED order is rejected with {@code reason}, every step it still
     * waits for becomes TIMED_OUT (a payment not asked for stays PENDING: it never will be) and the order is cancelled, so that what succeeded (or succeeds later) is undone.
     * An order that is already final is left as it is.
     */
    public static Transition expire(State state, String reason) {
        if (state.status() != CREATED) {
            return Transition.ignored(state, "the order is " + state.status() + ": its deadline changes nothing");
        }
        State next = state;
        for (Step step : Step.values()) {
            if (state.waitingFor(step)) {
                next = next.withStep(step, StepStatus.TIMED_OUT);
            }
        }
        return Transition.cancelled(next.withStatus(REJECTED, reason));
    }

    /**
     * The owner or an operator cancels the order: a CREATED or CONFIRMED order becomes CANCELLED and is cancelled
     * downstream (stock released, coupon active again, payment refunded or never made). Its steps stay as they are
     * and move with the answers to the OrderCancelled. A cancelled order is not cancelled again; a rejected one
     * was cancelled by its rejection.
     */
    public static Transition cancel(State state) {
        if (state.status() != CREATED && state.status() != CONFIRMED) {
            return Transition.ignored(state, "the order is " + state.status() + ": it cannot be cancelled");
        }
        return Transition.cancelled(state.withStatus(CANCELLED, null));
    }

    public static Transition apply(State state, StepReply reply) {
        StepStatus current = state.step(reply.step());
        Optional<Rule> rule = TABLE.stream()
                .filter(r -> r.outcome() == reply.outcome() && r.from() == current
                        && (r.orderStatuses().isEmpty() || r.orderStatuses().contains(state.status())))
                .findFirst();
        if (rule.isEmpty()) {
            return Transition.ignored(state, reply.step() + " is " + current + " and the order is "
                    + state.status() + ": a " + reply.outcome() + " reply changes nothing");
        }
        State next = state.withStep(reply.step(), undone(reply.step(), rule.get().to()));
        return switch (rule.get().effect()) {
            case CONFIRM_WHEN_COMPLETE -> advance(next);
            case REJECT_AND_CANCEL -> Transition.cancelled(next.withStatus(REJECTED, reply.reason()));
            case NONE -> Transition.moved(next);
        };
    }

    /**
     * A CREATED order after a step said yes: once the first three have, it asks for its payment, exactly once (the
     * transition that makes the last of them OK is the only one that finds payment PENDING with the rest done); an
     * order that costs nothing, or whose price is unknown because its replies came from a version without prices,
     * needs no payment. Confirmed when every step is done.
     */
    private static Transition advance(State next) {
        if (next.readyToPay() && next.step(Step.PAYMENT) == StepStatus.PENDING) {
            if (next.amountCents() != null && next.amountCents() > 0) {
                return new Transition(next, false, true, null);
            }
            next = next.withStep(Step.PAYMENT, StepStatus.NOT_NEEDED);
        }
        return Transition.moved(next.complete() ? next.withStatus(CONFIRMED, null) : next);
    }

    /** The payment's compensation is called what it is: a refund. */
    private static StepStatus undone(Step step, StepStatus to) {
        return step == Step.PAYMENT && to == StepStatus.COMPENSATED ? StepStatus.REFUNDED : to;
    }
}
