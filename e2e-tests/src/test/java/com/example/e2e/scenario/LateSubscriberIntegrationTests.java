package com.example.e2e.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.example.e2e.check.StateReader;
import com.example.e2e.check.SystemState;
import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;

/**
 * A service deployed for the first time after orders were placed still gets their events (docs/architecture.md,
 * rule 9). The system starts without risk-service, on a broker whose topology the harness declared as
 * {@code ./stack} and compose do. The orders placed meanwhile wait: each one's {@code OrderCreated} is in
 * risk-service's queue and none is final. Then risk-service starts for the first time, assesses every one of them,
 * and all end as planned under every invariant of the checker. On the processes driver only (a second step of
 * {@code .ci/run}), in a system of its own (risk-service must never have run in it); without the topology step, its queue would not exist when the
 * orders are published and they would never be assessed.
 */
class LateSubscriberIntegrationTests {

    private static final int ORDERS = 20;
    private static final String RISK_QUEUE = "order.events.risk-service";
    private static final Duration PATIENCE = Duration.ofMinutes(1);

    @Test
    void aServiceStartedForTheFirstTimeAfterOrdersWerePlacedHandlesThemAll() {
        E2eSystem.assumeDriver("processes");
        E2eSystem system = E2eSystem.startWithout(Service.RISK);
        try {
            Scenario.named("late subscriber", "risk-service starts for the first time after " + ORDERS + " orders "
                    + "were placed and published (processes driver).")
                    .intents(ORDERS).clients(4).rate(20).onlyConfirmations().withoutWarmUp()
                    .run(run -> {
                        run.awaitProgress(1.0);
                        ServiceNode risk = run.node(Service.RISK);
                        assertThat(risk.isRunning()).as("risk-service has not run yet").isFalse();
                        awaitEveryOrderWaitingForRisk(system.reader());

                        risk.start("");
                        risk.awaitReady(Duration.ofMinutes(2));
                    });
        } finally {
            // The next scenario gets a system on the driver it asks for.
            E2eSystem.closeIfStarted();
        }
    }

    /** Placed, published, answered by inventory and coupon, and waiting in the queue of a service that never ran. */
    private static void awaitEveryOrderWaitingForRisk(StateReader reader) {
        List<SystemState.Order> orders = await("every order reserved and its coupon settled").atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(500))
                .until(reader::orders, placed -> placed.size() == ORDERS && placed.stream().allMatch(order ->
                        order.inventoryStep().equals("OK") && !order.couponStep().equals("PENDING")));
        assertThat(orders).allSatisfy(order -> {
            assertThat(order.status()).as("order %d", order.id()).isEqualTo("CREATED");
            assertThat(order.riskStep()).as("order %d", order.id()).isEqualTo("PENDING");
        });
        // The management API's counts lag a few seconds behind the queue.
        await("every OrderCreated waiting in " + RISK_QUEUE).atMost(PATIENCE).pollInterval(Duration.ofSeconds(1))
                .until(() -> reader.queues().stream().filter(queue -> queue.name().equals(RISK_QUEUE))
                        .mapToLong(SystemState.Queue::messages).sum(), ready -> ready >= ORDERS);
    }
}
