package com.example.e2e.scenario;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.example.e2e.check.Requirement;
import com.example.e2e.nemesis.FaultKind;

/**
 * Back-pressure is not poison: the broker's memory alarm blocks every publishing connection for a while as orders
 * arrive. order-service keeps accepting them (they wait in the outboxes), nothing is refused or parked, and every
 * event is delivered once the alarm clears. Processes driver (the alarm is raised on the harness's own node).
 */
class BrokerMemoryAlarmIntegrationTests {

    @Test
    void ordersPlacedDuringAMemoryAlarmAreDeliveredWhenItClearsAndNothingIsParked() {
        E2eSystem.assumeDriver("processes");
        Scenario.named("broker memory alarm", "the broker's memory alarm raised for 10 s after a third of the intents "
                + "(every publisher blocked), then cleared (processes driver).")
                .intents(150).clients(4).rate(15)
                .requires(Requirement.fault(FaultKind.BROKER_MEMORY_ALARM))
                .run(run -> {
                    // Orders keep arriving for as long as the alarm is on, however fast the first ones went.
                    run.holdWorkloadOpen();
                    run.awaitProgress(0.3);
                    run.nemesis().memoryAlarm(Duration.ofSeconds(10));
                });
    }
}
