package com.example.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class FreePortsTests {

    @Test
    void portsComeFromBelowTheEphemeralRangeAndDoNotRepeat() {
        int ephemeralLow = FreePorts.ephemeralLow();
        Set<Integer> handedOut = new HashSet<>();

        for (int i = 0; i < 50; i++) {
            handedOut.add(TestInfrastructure.freePort());
        }

        assertThat(handedOut).hasSize(50)
                .allSatisfy(port -> assertThat(port).isGreaterThanOrEqualTo(FreePorts.LOWEST).isLessThan(ephemeralLow));
    }

    @Test
    void aPortSomethingListensOnIsPassedOver() throws Exception {
        FreePorts ports = new FreePorts(FreePorts.LOWEST + 2_000, 0);
        int taken = ports.pick();
        FreePorts again = new FreePorts(FreePorts.LOWEST + 2_000, taken - FreePorts.LOWEST);

        try (ServerSocket listener = new ServerSocket()) {
            listener.bind(new InetSocketAddress(taken));

            assertThat(again.pick()).isGreaterThan(taken);
        }
    }

    @Test
    void withoutRoomBelowTheEphemeralRangeTheKernelChooses() {
        assertThat(new FreePorts(FreePorts.LOWEST + 10, 0).pick()).isPositive();
    }
}
