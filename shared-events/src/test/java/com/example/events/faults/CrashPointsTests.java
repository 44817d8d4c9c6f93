package com.example.events.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class CrashPointsTests {

    private final List<Integer> halts = new ArrayList<>();

    @Test
    void haltsOnTheFirstOccurrenceByDefault() {
        CrashPoints points = CrashPoints.parse("relay.before-publish", halts::add);

        points.reach(CrashPoints.CONSUMER_BEFORE_COMMIT);
        assertThat(halts).isEmpty();
        points.reach(CrashPoints.RELAY_BEFORE_PUBLISH);
        assertThat(halts).containsExactly(CrashPoints.EXIT_CODE);
    }

    @Test
    void haltsOnTheNthOccurrence() {
        CrashPoints points = CrashPoints.parse(" consumer.before-commit@3 , relay.after-publish-before-mark", halts::add);

        points.reach(CrashPoints.CONSUMER_BEFORE_COMMIT);
        points.reach(CrashPoints.CONSUMER_BEFORE_COMMIT);
        assertThat(halts).isEmpty();
        points.reach(CrashPoints.CONSUMER_BEFORE_COMMIT);
        assertThat(halts).containsExactly(86);
        assertThat(points.armed()).containsEntry("consumer.before-commit", 3)
                .containsEntry("relay.after-publish-before-mark", 1);
    }

    @Test
    void emptyConfigurationArmsNothing() {
        assertThat(CrashPoints.parse("", halts::add).isArmed()).isFalse();
        assertThat(CrashPoints.parse(null, halts::add).isArmed()).isFalse();
    }

    @Test
    void refusesUnknownPointsAndBadCounts() {
        assertThatThrownBy(() -> CrashPoints.parse("relay.befor-publish"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown crash point 'relay.befor-publish'");
        assertThatThrownBy(() -> CrashPoints.parse("relay.before-publish@0"))
                .hasMessageContaining("needs a count >= 1");
        assertThatThrownBy(() -> CrashPoints.parse("relay.before-publish@x"))
                .hasMessageContaining("needs a count >= 1");
    }
}
