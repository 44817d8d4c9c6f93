package com.example.e2e.scenario;

import java.time.Duration;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.example.e2e.check.Requirement;
import com.example.e2e.topology.ServiceNode;

/**
 * Every crash point of the contract, in the services {@link CrashPointCase#all()} names. A second instance of the
 * service starts with the point armed ({@code faults.crash-at}) next to the running one, takes its share of
 * requests, outbox rows or deliveries under load, and halts there (exit code 86); the first instance
 * carries on with what the crashed one left: unsent rows, unacknowledged messages, unanswered clients.
 * The workload goes on until the armed instance has halted: a relay's crash point is reached only by the
 * instance that wins the claim of a batch, and a warm instance can win every claim of 40 orders (seen in CI).
 * Processes driver: a crash point is a place in the service's own code, reached the same way in a container; a case
 * costs 15–25 s here against about 40 s there, where every start of the armed instance is a new container.
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
        E2eSystem.assumeDriver("processes");
        Scenario.named("crash " + crash.point() + " in " + crash.service(),
                        "A second " + crash.service() + " instance armed with " + crash.point()
                                + " halts there under load; the first instance finishes its work.")
                .intents(40).clients(4).rate(25)
                .requires(crash.requirements().toArray(Requirement[]::new))
                .run(setup -> {
                    ServiceNode armed = setup.extraInstance(crash.service());
                    setup.nemesis().arm(armed, crash.point());
                    armed.awaitReady(READY_TIMEOUT);
                }, run -> {
                    // Until it halts, the armed instance competes with a warm one for every row and delivery: keep
                    // orders coming so it is not left without work once the planned intents are done.
                    run.holdWorkloadOpen();
                    run.nemesis().awaitCrash(run.extras().get(0), CRASH_WITHIN);
                });
    }
}
