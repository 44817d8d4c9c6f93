package com.example.e2e.scenario;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.example.e2e.check.Requirement;
import com.example.e2e.nemesis.FaultKind;
import com.example.e2e.topology.Service;

/**
 * SIGKILL of the only order-service instance under load: requests in flight get no answer, some of them
 * after their order committed; clients retry with the same key until the restarted service answers,
 * with the order it made or a new one, never two.
 */
class OrderServiceKillIntegrationTests {

    @Test
    void orderServiceKilledUnderLoadMakesOneOrderPerIntent() {
        Scenario.named("order-service SIGKILL under load", "kill -9 of order-service after a third of the intents "
                + "(8 concurrent clients), restarted 2 s later.")
                .intents(200).clients(8).rate(20)
                .requires(Requirement.fault(FaultKind.SERVICE_KILL), Requirement.retriedIntents())
                .run(run -> {
                    run.awaitProgress(0.3);
                    run.nemesis().kill(run.node(Service.ORDER), Duration.ofSeconds(2));
                });
    }
}
