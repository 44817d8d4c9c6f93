package com.example.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.example.order.OrderStateMachine.State;

class OrderDeadlinesTests {

    @Test
    void theReasonNamesTheStepsThatDidNotAnswerAndTheDeadline() {
        assertThat(OrderDeadlines.reason(state(StepStatus.OK, StepStatus.NOT_NEEDED, StepStatus.PENDING),
                Duration.ofMinutes(10))).isEqualTo("deadline: no answer from risk within 10m");
        assertThat(OrderDeadlines.reason(state(StepStatus.PENDING, StepStatus.OK, StepStatus.PENDING),
                Duration.ofSeconds(90))).isEqualTo("deadline: no answer from inventory and risk within 90s");
        assertThat(OrderDeadlines.reason(state(StepStatus.PENDING, StepStatus.PENDING, StepStatus.PENDING),
                Duration.ofHours(2))).isEqualTo("deadline: no answer from inventory, coupon and risk within 2h");
        assertThat(OrderDeadlines.reason(state(StepStatus.OK, StepStatus.OK, StepStatus.COMPENSATED),
                Duration.ofMillis(1500))).isEqualTo("deadline: not final within 1500ms");
    }

    @Test
    void theSweepIntervalIsATenthOfTheDeadlineUpToFiveSecondsUnlessSet() {
        assertThat(new DeadlineProperties(Duration.ofMinutes(10), null).sweepInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(new DeadlineProperties(Duration.ofSeconds(10), null).sweepInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(new DeadlineProperties(Duration.ofMinutes(10), Duration.ofMinutes(1)).sweepInterval())
                .isEqualTo(Duration.ofMinutes(1));
        assertThatThrownBy(() -> new DeadlineProperties(Duration.ZERO, null)).hasMessageContaining("orders.deadline");
        assertThatThrownBy(() -> new DeadlineProperties(Duration.ofMinutes(1), Duration.ofSeconds(-1)))
                .hasMessageContaining("orders.deadline-sweep-interval");
    }

    private static State state(StepStatus inventory, StepStatus coupon, StepStatus risk) {
        return new State(OrderStatus.CREATED, Map.of(Step.INVENTORY, inventory, Step.COUPON, coupon, Step.RISK, risk,
                Step.PAYMENT, StepStatus.NOT_NEEDED), null, null);
    }
}
