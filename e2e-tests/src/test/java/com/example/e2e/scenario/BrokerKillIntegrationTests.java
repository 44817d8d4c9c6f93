package com.example.e2e.scenario;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.example.e2e.check.Requirement;
import com.example.e2e.nemesis.FaultKind;

/**
 * kill -9 of the RabbitMQ node while orders flow, down for a few seconds, then restarted on the same
 * data: relays must republish what was not confirmed, durable queues must keep what was, and consumers
 * must reconnect, all without a service restart.
 */
class BrokerKillIntegrationTests {

    @Test
    void brokerCrashMidFlowLosesNothingAndDuplicatesNothing() {
        Scenario.named("broker SIGKILL mid-flow", "kill -9 of the broker after a third of the intents, down 4 s, "
                + "restarted on the same data directory.")
                .intents(180).clients(6).rate(15)
                .requires(Requirement.fault(FaultKind.BROKER_KILL))
                .run(run -> {
                    run.awaitProgress(0.3);
                    run.nemesis().killBroker(Duration.ofSeconds(4));
                });
    }
}
