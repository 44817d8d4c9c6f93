package com.example.risk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

class RiskRulesTests {

    private final RiskRules rules = new RiskRules(Set.of(13L), 5, 3);

    @Test
    void approvesAnOrdinaryOrder() {
        assertThat(rules.reasonsToReject(42, 5, 2)).isEmpty();
    }

    @Test
    void rejectsABlockedUser() {
        assertThat(rules.reasonsToReject(13, 1, 0)).containsExactly("user 13 is blocked");
    }

    @Test
    void rejectsTooManyUnits() {
        assertThat(rules.reasonsToReject(42, 6, 0)).containsExactly("order has 6 units, more than the maximum of 5");
    }

    @Test
    void rejectsTheOrderAfterTheMaximumWithinAMinute() {
        assertThat(rules.reasonsToReject(42, 1, 3))
                .containsExactly("user 42 placed 3 orders in the minute before this one; the maximum is 3");
    }

    @Test
    void givesEveryReasonThatApplies() {
        assertThat(rules.reasonsToReject(13, 9, 7)).hasSize(3);
    }
}
