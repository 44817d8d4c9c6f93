package com.example.e2e.scenario;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.example.e2e.check.Requirement;
import com.example.e2e.nemesis.FaultKind;
import com.example.e2e.nemesis.RandomNemesis;
import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;

/**
 * The randomized soak: a long mixed workload while a nemesis deals every kind of fault, then random
 * ones, until the workload ends (which is never before the deck is dealt: the clients keep placing
 * intents of the same mix until then). Size and length come from system properties so that CI runs it
 * small and {@code ./stack chaos} long: {@code e2e.intents} (default 2000) and {@code e2e.minutes}
 * (default 0: run until the intents are placed; with minutes, keep placing intents until the time is
 * up, at most {@code e2e.intents} when that is also given); {@code e2e.seed} picks the faults.
 */
class SoakIntegrationTests {

    @Test
    void everyInvariantHoldsUnderRandomFaults() {
        int intents = Integer.getInteger("e2e.intents", 2000);
        double minutes = Double.parseDouble(System.getProperty("e2e.minutes", "0"));
        long seed = Long.getLong("e2e.seed", 20261130L);
        Scenario.named("soak", "Randomized soak (seed " + seed + "): every kind of fault at least once, then random "
                + "faults until the workload ends; a second inventory instance runs throughout.")
                .intents(intents).minutes(minutes).clients(8).rate(15).showProgress()
                .requires(Requirement.fault(FaultKind.SERVICE_KILL), Requirement.fault(FaultKind.KILL_DURING_STARTUP),
                        Requirement.fault(FaultKind.CRASH_POINT), Requirement.fault(FaultKind.BROKER_KILL),
                        Requirement.fault(FaultKind.DATABASE_STOP), Requirement.fault(FaultKind.ZOMBIE),
                        Requirement.fault(FaultKind.PROVIDER_FAULTS),
                        Requirement.duplicatesSuppressedIn(Service.ours()), Requirement.retriedIntents())
                .run(setup -> {
                    ServiceNode second = setup.extraInstance(Service.INVENTORY);
                    second.start("");
                    second.awaitReady(Duration.ofMinutes(3));
                    setup.holdWorkloadOpen();
                }, run -> new RandomNemesis(run.nemesis(), run.topology(), seed)
                        .run(() -> !run.workloadDone(), run::duplicatesSuppressed, run::releaseWorkload));
    }
}
