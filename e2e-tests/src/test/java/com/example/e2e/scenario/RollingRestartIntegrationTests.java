package com.example.e2e.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.example.e2e.check.Requirement;
import com.example.e2e.nemesis.FaultKind;
import com.example.e2e.report.ScenarioResult;
import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;

/**
 * A rolling deployment under load: every service in turn is stopped as an orchestrator stops it (SIGTERM, 45 s
 * before SIGKILL), started again and awaited ready before the next. Each must stop by itself in time (exit code
 * 143: requests in flight answered, the relay's batch marked sent, unacknowledged messages handed back); no
 * intent may fail or stay unknown (the clients retry while order-service restarts), and no order may be left
 * waiting. Processes driver.
 */
class RollingRestartIntegrationTests {

    private static final Duration GRACE = Duration.ofSeconds(45);

    @Test
    void restartingEveryServiceOneAtATimeUnderLoadFailsNoIntentAndLeavesNoOrderWaiting() {
        E2eSystem.assumeDriver("processes");
        ScenarioResult result = Scenario.named("rolling restart", "every service stopped gracefully and started "
                + "again, one at a time, while orders arrive (processes driver).")
                .intents(100).clients(4).rate(10)
                .requires(Requirement.fault(FaultKind.ROLLING_RESTART), Requirement.retriedIntents())
                .run(run -> {
                    run.holdWorkloadOpen();
                    run.awaitProgress(0.2);
                    List<ServiceNode> nodes = Arrays.stream(new Service[] { Service.INVENTORY, Service.COUPON,
                            Service.RISK, Service.ORDER }).map(run::node).toList();
                    run.nemesis().rollingRestart(nodes, GRACE);
                });
        // A valid intent refused for good fails the checker (planned outcomes); none may be left unknown either.
        assertThat(result.intents()).as("intents by outcome").containsEntry("UNKNOWN", 0L);
    }
}
