package com.example.e2e.scenario;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.example.e2e.check.Requirement;
import com.example.e2e.nemesis.FaultKind;
import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;

/**
 * A consumer that freezes mid-work (SIGSTOP) with unacknowledged messages and open transactions, long
 * enough for the broker to give its messages to a second instance, and then wakes up and finishes what
 * it was doing: two instances apply the same events, and processed_events must keep each effect single.
 */
class ConsumerZombieIntegrationTests {

    @Test
    void pausedConsumerAndItsReplacementApplyEachEventOnce() {
        Scenario.named("consumer zombie", "inventory-service-1 is paused for 15 s (past the broker's heartbeat "
                + "timeout) while a second inventory instance takes over, then resumed.")
                .intents(240).clients(6).rate(12)
                .requires(Requirement.fault(FaultKind.ZOMBIE), Requirement.duplicatesSuppressedIn(Service.INVENTORY))
                .run(setup -> {
                    ServiceNode second = setup.extraInstance(Service.INVENTORY);
                    second.start("");
                    second.awaitReady(Duration.ofMinutes(3));
                }, run -> {
                    run.awaitProgress(0.2);
                    run.nemesis().zombie(run.node(Service.INVENTORY), run.extras().get(0), Duration.ofSeconds(15));
                });
    }
}
