package com.example.e2e.scenario;

import java.time.Duration;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.example.e2e.check.Requirement;
import com.example.e2e.topology.ServiceNode;

/**
 * Every crash point of the contract, in every service that has it. A second instance of the service
 * starts with the point armed ({@code faults.crash-at}) next to the running one, takes its share of
 * requests, outbox rows or deliveries under load, and halts there (exit code 86); the first instance
 * carries on with what the crashed one left: unsent rows, unacknowledged messages, unanswered clients.
 */
class CrashPointIntegrationTests {

    private static final Duration CRASH_WITHIN = Duration.ofMinutes(1);
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

    static Stream<CrashPointCase> crashPoints() {
        return CrashPointCase.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("crashPoints")
    void crashPointLeavesEveryEffectExactlyOnce(CrashPointCase crash) {
        Scenario.named("crash " + crash.point() + " in " + crash.service(),
                        "A second " + crash.service() + " instance armed with " + crash.point()
                                + " halts there under load; the first instance finishes its work.")
                .intents(40).clients(4).rate(25)
                .requires(crash.requirements().toArray(Requirement[]::new))
                .run(setup -> {
                    ServiceNode armed = setup.extraInstance(crash.service());
                    setup.nemesis().arm(armed, crash.point());
                    armed.awaitReady(READY_TIMEOUT);
                }, run -> run.nemesis().awaitCrash(run.extras().get(0), CRASH_WITHIN));
    }
}
