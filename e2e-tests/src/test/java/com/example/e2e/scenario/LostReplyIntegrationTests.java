package com.example.e2e.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.example.e2e.check.Requirement;
import com.example.e2e.check.StateReader;
import com.example.e2e.check.SystemState;
import com.example.e2e.nemesis.FaultKind;
import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;
import com.example.testsupport.TestTokens;

import tools.jackson.databind.json.JsonMapper;

/**
 * Nothing waits forever (docs/architecture.md, rule 10): a reply that ends in a dead-letter queue, which nobody
 * watches, used to leave its order {@code CREATED} for ever. Here every order's {@code RiskApproved} is
 * dead-lettered on purpose (rejected by the harness in order-service's queue while order-service is stopped),
 * order-service runs with a deadline of {@value #DEADLINE_SECONDS} s, and each order must be rejected at its
 * deadline with its reservation released and its coupon active again. Then an operator re-drives the dead
 * letters: the late approvals are applied to the order's history, and change nothing that matters (every order
 * stays rejected, every effect stays undone). Processes driver (the deadline is a setting of one instance's run).
 */
class LostReplyIntegrationTests {

    private static final int ORDERS = 10;
    private static final long DEADLINE_SECONDS = 30;
    private static final String REPLIES = "risk.events.order-service";
    private static final Duration GRACE = Duration.ofSeconds(45);
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    @Test
    void anOrderWhoseReplyWasDeadLetteredIsRejectedAtItsDeadlineAndTheRedriveChangesNothing() {
        E2eSystem.assumeDriver("processes");
        E2eSystem system = E2eSystem.get();
        try {
            Scenario.named("lost reply", ORDERS + " orders whose RiskApproved is dead-lettered on purpose, a "
                    + DEADLINE_SECONDS + " s deadline rejects them, then the dead letters are re-driven (processes driver).")
                    .intents(ORDERS).clients(4).rate(20).onlyConfirmations()
                    .requires(Requirement.fault(FaultKind.REPLY_DEAD_LETTERED))
                    .run(setup -> {
                        // Risk answers only once order-service is stopped, so that its replies wait in the queue.
                        setup.node(Service.RISK).stop(GRACE);
                        system.override(Service.ORDER, "orders.deadline", DEADLINE_SECONDS + "s");
                        restart(setup.node(Service.ORDER));
                    }, run -> {
                        ServiceNode order = run.node(Service.ORDER);
                        ServiceNode risk = run.node(Service.RISK);
                        run.awaitProgress(1.0);
                        List<Long> waiting = awaitEveryOrderWaitingForRisk(system.reader());

                        order.stop(GRACE);
                        risk.start("");
                        risk.awaitReady(PATIENCE);
                        run.nemesis().deadLetter(REPLIES, ORDERS, PATIENCE);
                        order.start("");
                        order.awaitReady(PATIENCE);

                        Map<Long, SystemState.Order> rejected = awaitRejectedAtDeadline(system.reader(), waiting);
                        assertThat(redrive(order.baseUrl(), REPLIES + ".dlq")).as("dead letters moved back")
                                .isEqualTo(ORDERS);
                        await("the re-driven replies consumed").atMost(PATIENCE).pollInterval(Duration.ofSeconds(1))
                                .until(() -> depth(system.reader(), REPLIES) + depth(system.reader(), REPLIES + ".dlq"),
                                        left -> left == 0);
                        Map<Long, SystemState.Order> after = orders(system.reader(), waiting);
                        assertThat(after.values()).allSatisfy(late -> {
                            SystemState.Order before = rejected.get(late.id());
                            assertThat(late.status()).as("order %d", late.id()).isEqualTo("REJECTED");
                            assertThat(late.rejectionReason()).isEqualTo(before.rejectionReason());
                            assertThat(late.inventoryStep()).isEqualTo(before.inventoryStep());
                            assertThat(late.couponStep()).isEqualTo(before.couponStep());
                        });

                        system.clearOverrides();
                        restart(order);
                    });
        } finally {
            system.clearOverrides();
        }
    }

    private static void restart(ServiceNode node) {
        node.stop(GRACE);
        node.start("");
        node.awaitReady(PATIENCE);
    }

    /** Placed, answered by inventory and coupon, waiting for risk, which is stopped. */
    private static List<Long> awaitEveryOrderWaitingForRisk(StateReader reader) {
        List<SystemState.Order> waiting = await("every order reserved and its coupon settled").atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> reader.orders().stream().filter(order -> order.status().equals("CREATED")).toList(),
                        created -> created.size() == ORDERS && created.stream().allMatch(order ->
                                order.inventoryStep().equals("OK") && !order.couponStep().equals("PENDING")
                                        && order.riskStep().equals("PENDING")));
        return waiting.stream().map(SystemState.Order::id).toList();
    }

    private static Map<Long, SystemState.Order> awaitRejectedAtDeadline(StateReader reader, List<Long> ids) {
        Map<Long, SystemState.Order> rejected = await("every order rejected at its deadline, its effects undone")
                .atMost(PATIENCE).pollInterval(Duration.ofSeconds(1))
                .until(() -> orders(reader, ids), orders -> orders.size() == ids.size() && orders.values().stream()
                        .allMatch(order -> order.status().equals("REJECTED")
                                && order.inventoryStep().equals("COMPENSATED")
                                && !order.couponStep().equals("OK")));
        assertThat(rejected.values()).allSatisfy(order -> {
            assertThat(order.rejectionReason()).as("order %d", order.id()).startsWith("deadline");
            assertThat(order.riskStep()).as("order %d", order.id()).isEqualTo("TIMED_OUT");
        });
        return rejected;
    }

    private static Map<Long, SystemState.Order> orders(StateReader reader, List<Long> ids) {
        return reader.orders().stream().filter(order -> ids.contains(order.id()))
                .collect(Collectors.toMap(SystemState.Order::id, Function.identity()));
    }

    private static long depth(StateReader reader, String queue) {
        return reader.queues().stream().filter(q -> q.name().equals(queue))
                .mapToLong(q -> q.messages() + q.unacknowledged()).sum();
    }

    /** The operator's re-drive, through order-service's API. */
    private static long redrive(URI service, String queue) {
        HttpResponse<String> response;
        try {
            response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(service.resolve("/admin/dead-letters/" + queue + "/redrive"))
                            .header("Authorization", "Bearer " + TestTokens.admin())
                            .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        assertThat(response.statusCode()).as("redrive answered %s", response.body()).isEqualTo(200);
        return JsonMapper.builder().build().readTree(response.body()).path("moved").asLong();
    }
}
