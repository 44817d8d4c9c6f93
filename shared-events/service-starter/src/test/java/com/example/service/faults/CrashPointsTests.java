package com.example.service.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class CrashPointsTests {

    private static final CrashPoint BEFORE_PUBLISH = new CrashPoint("relay.before-publish", "a");
    private static final CrashPoint AFTER_PUBLISH = new CrashPoint("relay.after-publish-before-mark", "b");
    private static final CrashPoint BEFORE_COMMIT = new CrashPoint("consumer.before-commit", "c");
    private static final List<CrashPoint> DECLARED = List.of(BEFORE_PUBLISH, AFTER_PUBLISH, BEFORE_COMMIT);

    private final List<Integer> halts = new ArrayList<>();

    @Test
    void haltsOnTheFirstOccurrenceByDefault() {
        CrashPoints points = CrashPoints.parse("relay.before-publish", DECLARED, halts::add);

        points.reach(BEFORE_COMMIT);
        assertThat(halts).isEmpty();
        points.reach(BEFORE_PUBLISH);
        assertThat(halts).containsExactly(CrashPoints.EXIT_CODE);
    }

    @Test
    void haltsOnTheNthOccurrence() {
        CrashPoints points = CrashPoints.parse(" consumer.before-commit@3 , relay.after-publish-before-mark", DECLARED, halts::add);

        points.reach(BEFORE_COMMIT);
        points.reach(BEFORE_COMMIT);
        assertThat(halts).isEmpty();
        points.reach(BEFORE_COMMIT);
        assertThat(halts).containsExactly(86);
        assertThat(points.armed()).containsEntry("consumer.before-commit", 3)
                .containsEntry("relay.after-publish-before-mark", 1);
    }

    @Test
    void emptyConfigurationArmsNothing() {
        assertThat(CrashPoints.parse("", DECLARED, halts::add).isArmed()).isFalse();
        assertThat(CrashPoints.parse(null, DECLARED, halts::add).isArmed()).isFalse();
    }

    @Test
    void refusesUnknownPointsAndBadCounts() {
        assertThatThrownBy(() -> CrashPoints.parse("relay.befor-publish", DECLARED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown crash point 'relay.befor-publish'");
        assertThatThrownBy(() -> CrashPoints.parse("relay.before-publish@0", DECLARED))
                .hasMessageContaining("needs a count >= 1");
        assertThatThrownBy(() -> CrashPoints.parse("relay.before-publish@x", DECLARED))
                .hasMessageContaining("needs a count >= 1");
    }

    @Test
    void onlyPointsThisProcessDeclaresCanBeArmed() {
        assertThatThrownBy(() -> CrashPoints.parse("order.after-commit-before-response", DECLARED))
                .hasMessageContaining("unknown crash point 'order.after-commit-before-response'")
                .hasMessageContaining("relay.before-publish");
    }

    @Test
    void aPointIsNamedOwnerDotPlace() {
        assertThatThrownBy(() -> new CrashPoint("Relay before publish", "x")).isInstanceOf(IllegalArgumentException.class);
    }
}
