package com.example.e2e.scenario;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.example.e2e.check.Requirement;
import com.example.e2e.nemesis.FaultKind;

/**
 * An immediate (crash-like) stop of PostgreSQL while orders flow: order-service answers 503 and clients
 * retry with the same key, relays and inboxes wait, and everything resumes once the server is back,
 * without a service restart.
 */
class DatabaseStopIntegrationTests {

    @Test
    void databaseCrashMidFlowLosesNothingAndDuplicatesNothing() {
        Scenario.named("database stop mid-flow", "pg_ctl stop -m immediate after a third of the intents, down 4 s, "
                + "then started again.")
                .intents(180).clients(6).rate(15)
                .requires(Requirement.fault(FaultKind.DATABASE_STOP), Requirement.retriedIntents())
                .run(run -> {
                    run.awaitProgress(0.3);
                    run.nemesis().stopDatabase(Duration.ofSeconds(4));
                });
    }
}
