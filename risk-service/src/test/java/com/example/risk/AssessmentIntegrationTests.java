package com.example.risk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.events.RiskEvent;
import com.example.events.RiskRejected;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.TestEvents;

import io.micrometer.core.instrument.Counter;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Assessments as order events drive them, against the real broker and database. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@FreshInfrastructure
@TestPropertySource(properties = { "risk.blocked-user-ids=13,666", "risk.max-units-per-order=5",
        "risk.max-orders-per-user-per-minute=3", "spring.cloud.stream.default.consumer.concurrency=4",
        "spring.cloud.stream.rabbit.default.consumer.prefetch=1" })
class AssessmentIntegrationTests extends ConsumerTestSupport {

    private static final String QUEUE = "order.events.risk-service";
    private static final AtomicLong IDS = new AtomicLong();
    private static final Instant T = Instant.parse("2026-11-30T10:00:00Z");

    @Autowired
    RiskAssessor assessor;

    @Autowired
    TransactionalOperator transactions;

    @Override
    protected String replyExchange() {
        return RiskEvent.EXCHANGE;
    }

    @Test
    void approvesAnOrdinaryOrder() {
        OrderCreated order = order(user(), T, 1L, 2L, 2L);

        broker.publish(order);

        assertThat(awaitReplies(order.orderId(), 1)).containsExactly("RiskApproved");
        assertThat(database.rows("select decision, units from assessments where order_id = ?", order.orderId()))
                .containsExactly(Map.of("decision", "APPROVED", "units", 3));
    }

    @Test
    void rejectsABlockedUserAndTooManyUnitsWithEveryReason() {
        OrderCreated order = order(666, T, 1L, 1L, 1L, 2L, 2L, 3L);

        broker.publish(order);

        assertThat(awaitReplies(order.orderId(), 1)).containsExactly("RiskRejected");
        assertThat(reply(order.orderId(), RiskRejected.class).reasons()).containsExactly("user 666 is blocked",
                "order has 6 units, more than the maximum of 5");
    }

    /** Counted by the orders' own times: a minute after the first three, the user may order again. */
    @Test
    void rejectsTheFourthOrderOfAUserWithinAMinuteOfItsOccurrence() {
        long user = user();
        List<OrderCreated> orders = List.of(order(user, T, 1L), order(user, T.plusSeconds(10), 1L),
                order(user, T.plusSeconds(20), 1L), order(user, T.plusSeconds(30), 1L), order(user, T.plusSeconds(85), 1L));

        List<String> answers = orders.stream().map(order -> {
            broker.publish(order);
            return awaitReplies(order.orderId(), 1).get(0);
        }).toList();

        assertThat(answers).containsExactly("RiskApproved", "RiskApproved", "RiskApproved", "RiskRejected",
                "RiskApproved");
        assertThat(reply(orders.get(3).orderId(), RiskRejected.class).reasons())
                .containsExactly("user " + user + " placed 3 orders in the minute before this one; the maximum is 3");
    }

    /** The relay may publish an order's event again (a new delivery, even a new id): it is still one order. */
    @Test
    void anOrderArrivingAgainIsCountedOnceAndAnsweredTheSame() {
        long user = user();
        OrderCreated first = order(user, T, 1L);
        OrderCreated sameOrderAgain = new OrderCreated(UUID.randomUUID(), first.orderId(), user, first.skuIds(), null,
                first.occurredAt());

        broker.publish(first);
        awaitReplies(first.orderId(), 1);
        broker.publish(sameOrderAgain);
        assertThat(awaitReplies(first.orderId(), 2)).containsExactly("RiskApproved", "RiskApproved");
        OrderCreated second = order(user, T.plusSeconds(1), 1L);
        OrderCreated third = order(user, T.plusSeconds(2), 1L);
        broker.publish(second);
        awaitReplies(second.orderId(), 1);
        broker.publish(third);

        assertThat(awaitReplies(third.orderId(), 1)).containsExactly("RiskApproved");
        assertThat(database.count("select count(*) from assessments where user_id = ?", user)).isEqualTo(3);
    }

    @Test
    void sixOrdersOfOneUserAssessedConcurrentlyGetExactlyThreeApprovals() {
        long user = user();
        List<OrderCreated> orders = IntStream.range(0, 6).mapToObj(i -> order(user, T, 1L)).toList();

        orders.parallelStream().forEach(broker::publish);

        await().atMost(PATIENCE).until(() -> orders.stream().allMatch(order -> database.replies(order.orderId()).size() == 1));
        assertThat(orders.stream().map(order -> database.replies(order.orderId()).get(0)))
                .containsExactlyInAnyOrder("RiskApproved", "RiskApproved", "RiskApproved", "RiskRejected",
                        "RiskRejected", "RiskRejected");
    }

    /**
     * A batch's way, in one transaction: the users of all its orders locked ahead (and held until it commits), then
     * its orders assessed one after the other, each counting the ones before it.
     */
    @Test
    void aBatchLocksItsUsersAheadAndCountsItsOwnEarlierOrders() {
        long user = user();
        long other = user();
        long untouched = user();
        List<OrderCreated> orders = List.of(order(user, T, 1L), order(other, T, 1L), order(user, T.plusSeconds(10), 1L),
                order(user, T.plusSeconds(20), 1L), order(user, T.plusSeconds(30), 1L));

        record Outcome(List<Long> lockedWhileOpen, List<String> answers) {
        }
        Outcome outcome = transactions.transactional(assessor.lockUsersOf(orders)
                        .then(Mono.fromCallable(() -> Stream.of(user, other, untouched)
                                .filter(id -> !free(id))
                                .toList()))
                        .flatMap(locked -> Flux.fromIterable(orders).concatMap(assessor::assess)
                                .map(RiskEvent::eventType).collectList()
                                .map(answers -> new Outcome(locked, answers))))
                .block(PATIENCE);

        assertThat(outcome.lockedWhileOpen()).containsExactly(user, other);
        assertThat(outcome.answers()).containsExactly("RiskApproved", "RiskApproved", "RiskApproved", "RiskApproved",
                "RiskRejected");
        assertThat(database.count("select count(*) from assessments where user_id = ?", user)).isEqualTo(4);
        assertThat(free(user)).as("the locks end with the transaction").isTrue();
    }

    @Test
    void anOrderCancelledThatReachesTheQueueIsAcknowledgedWithoutEffect() {
        OrderCancelled cancel = new OrderCancelled(UUID.randomUUID(), IDS.incrementAndGet(), "coupon rejected", T);
        double ignoredBefore = ignored();

        broker.publishToQueue(QUEUE, TestEvents.message(cancel));

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(ignored() - ignoredBefore).isEqualTo(1));
        assertThat(database.replies(cancel.orderId())).isEmpty();
        awaitQueueDrained(QUEUE);
        assertThat(broker.ready(QUEUE + ".dlq")).isZero();
    }

    /** Whether another connection could take the user's lock now (it lets go of it at once). */
    private boolean free(long userId) {
        return Boolean.TRUE.equals(database.rows("select pg_try_advisory_xact_lock(?) as free", userId).get(0)
                .get("free"));
    }

    private double ignored() {
        return meters.find("events.processed").tag("outcome", "ignored").counters().stream().mapToDouble(Counter::count)
                .sum();
    }

    private static long user() {
        return IDS.incrementAndGet() + 10_000;
    }

    private static OrderCreated order(long userId, Instant occurredAt, Long... skuIds) {
        return new OrderCreated(UUID.randomUUID(), IDS.incrementAndGet() + 100_000, userId, List.of(skuIds), null,
                occurredAt);
    }
}
