package com.example.order;

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
        /** Confirm when every step has succeeded. */
        CONFIRM_WHEN_COMPLETE,
        /** Reject the order and cancel it, so that finished steps are compensated. */
        REJECT_AND_CANCEL,
        /** Only the step moves. */
        NONE
    }

    private static final Set<OrderStatus> ANY = Set.of();

    // @formatter:off
    private static final List<Rule> TABLE = List.of(
        //       reply       step from            order is          step to                effect
        new Rule(SUCCEEDED,  StepStatus.PENDING,  Set.of(CREATED),  StepStatus.OK,         Effect.CONFIRM_WHEN_COMPLETE),
        // Succeeded after the order was rejected: held until the OrderCancelled already sent releases it.
        new Rule(SUCCEEDED,  StepStatus.PENDING,  Set.of(REJECTED), StepStatus.OK,         Effect.NONE),
        new Rule(NOT_NEEDED, StepStatus.PENDING,  Set.of(CREATED),  StepStatus.NOT_NEEDED, Effect.CONFIRM_WHEN_COMPLETE),
        new Rule(NOT_NEEDED, StepStatus.PENDING,  Set.of(REJECTED), StepStatus.NOT_NEEDED, Effect.NONE),
        new Rule(StepReply.Outcome.REJECTED, StepStatus.PENDING, Set.of(CREATED),  StepStatus.REJECTED, Effect.REJECT_AND_CANCEL),
        new Rule(StepReply.Outcome.REJECTED, StepStatus.PENDING, Set.of(REJECTED), StepStatus.REJECTED, Effect.NONE),
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

    /** The state of an order that the table reads and writes. */
    public record State(OrderStatus status, Map<Step, StepStatus> steps, String rejectionReason) {

        public State {
            steps = Map.copyOf(steps);
        }

        public static State of(Order order) {
            Map<Step, StepStatus> steps = new EnumMap<>(Step.class);
            steps.put(Step.INVENTORY, order.inventoryStep());
            steps.put(Step.COUPON, order.couponStep());
            steps.put(Step.RISK, order.riskStep());
            return new State(order.status(), steps, order.rejectionReason());
        }

        public StepStatus step(Step step) {
            return steps.get(step);
        }

        State withStep(Step step, StepStatus to) {
            Map<Step, StepStatus> moved = new EnumMap<>(steps);
            moved.put(step, to);
            return new State(status, moved, rejectionReason);
        }

        boolean complete() {
            return step(Step.INVENTORY) == StepStatus.OK && step(Step.RISK) == StepStatus.OK
                    && (step(Step.COUPON) == StepStatus.OK || step(Step.COUPON) == StepStatus.NOT_NEEDED);
        }
    }

    /**
     * The outcome of applying a reply.
     *
     * @param next the new state (the same state when ignored)
     * @param cancel true when the order was just rejected and an OrderCancelled must be emitted
     * @param ignoredBecause why the reply changed nothing, or null when it was applied
     */
    public record Transition(State next, boolean cancel, String ignoredBecause) {

        public boolean applied() {
            return ignoredBecause == null;
        }
    }

    /**
     * The deadline of an order has passed: a CREATED order is rejected with {@code reason}, every step still
     * PENDING becomes TIMED_OUT and the order is cancelled, so that what succeeded (or succeeds later) is undone.
     * An order that is already final is left as it is.
     */
    public static Transition expire(State state, String reason) {
        if (state.status() != CREATED) {
            return new Transition(state, false, "the order is " + state.status() + ": its deadline changes nothing");
        }
        State next = state;
        for (Step step : Step.values()) {
            if (state.step(step) == StepStatus.PENDING) {
                next = next.withStep(step, StepStatus.TIMED_OUT);
            }
        }
        return new Transition(new State(REJECTED, next.steps(), reason), true, null);
    }

    public static Transition apply(State state, StepReply reply) {
        StepStatus current = state.step(reply.step());
        Optional<Rule> rule = TABLE.stream()
                .filter(r -> r.outcome() == reply.outcome() && r.from() == current
                        && (r.orderStatuses().isEmpty() || r.orderStatuses().contains(state.status())))
                .findFirst();
        if (rule.isEmpty()) {
            return new Transition(state, false, reply.step() + " is " + current + " and the order is "
                    + state.status() + ": a " + reply.outcome() + " reply changes nothing");
        }
        State next = state.withStep(reply.step(), rule.get().to());
        return switch (rule.get().effect()) {
            case CONFIRM_WHEN_COMPLETE -> new Transition(
                    next.complete() ? new State(CONFIRMED, next.steps(), null) : next, false, null);
            case REJECT_AND_CANCEL -> new Transition(new State(REJECTED, next.steps(), reply.reason()), true, null);
            case NONE -> new Transition(next, false, null);
        };
    }
}
