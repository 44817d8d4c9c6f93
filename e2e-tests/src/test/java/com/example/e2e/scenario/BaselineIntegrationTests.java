package com.example.e2e.scenario;

import org.junit.jupiter.api.Test;

/**
 * The workload without faults: every invariant must already hold when nothing goes wrong, or the
 * fault scenarios would prove nothing about faults.
 */
class BaselineIntegrationTests {

    @Test
    void withoutFaultsEveryInvariantHolds() {
        Scenario.named("baseline", "The mixed workload (confirmations, planned rejections, races, invalid requests, "
                + "double submits) without any fault.")
                .intents(120).clients(6).rate(40)
                .run(run -> { });
    }
}
