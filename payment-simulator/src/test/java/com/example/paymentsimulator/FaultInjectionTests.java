package com.example.paymentsimulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

class FaultInjectionTests {

    @Test
    void nothingIsDrawnWhileTheFaultsAreOff() {
        FaultInjection faults = new FaultInjection(new RandomGenerator() {

            @Override
            public long nextLong() {
                throw new AssertionError("no dice while the faults are off");
            }
        });

        assertThat(faults.errorBefore()).isFalse();
        assertThat(faults.timeoutAfterCharge()).isFalse();
        assertThat(faults.decline()).isFalse();
    }

    @Test
    void aPercentageStrikesWhenTheDrawIsBelowIt() {
        FaultInjection faults = new FaultInjection(scripted(29, 30, 99, 0));
        faults.set(new Faults(0, 30, 0, 0));

        assertThat(List.of(faults.errorBefore(), faults.errorBefore())).containsExactly(true, false);
        faults.set(new Faults(0, 0, 100, 0));
        assertThat(faults.timeoutAfterCharge()).isTrue();
        faults.set(new Faults(0, 0, 0, 1));
        assertThat(faults.decline()).isTrue();
        assertThat(faults.current()).isEqualTo(new Faults(0, 0, 0, 1));
    }

    @Test
    void faultsOutsideTheirRangesDoNotExist() {
        assertThatThrownBy(() -> new Faults(60_001, 0, 0, 0)).hasMessageContaining("latency_ms");
        assertThatThrownBy(() -> new Faults(0, 101, 0, 0)).hasMessageContaining("between 0 and 100");
        assertThatThrownBy(() -> new Faults(0, 0, -1, 0)).hasMessageContaining("between 0 and 100");
    }

    /** Answers {@code nextInt(100)} with the given draws, in order. */
    private static RandomGenerator scripted(int... draws) {
        Iterator<Integer> next = Arrays.stream(draws).iterator();
        return new RandomGenerator() {

            @Override
            public int nextInt(int bound) {
                return next.next();
            }

            @Override
            public long nextLong() {
                throw new AssertionError("only nextInt(100) is drawn");
            }
        };
    }
}
