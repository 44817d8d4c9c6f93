package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.rabbit.retry.RepublishMessageRecoverer;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.stream.binding.BindingsLifecycleController;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.DomainEvent;
import com.example.events.EventHeaders;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.events.OrderEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.messaging.relay.OutboxHandOff;
import com.example.messaging.relay.RelayTestApplication;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;
import com.example.service.faults.CrashPoints;
import com.example.testsupport.TestEvents;

import io.micrometer.core.instrument.DistributionSummary;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Batch consumption ({@code messaging.inbox.batch.size} above 1) against the real broker and database: events that
 * waited in the queue arrive in batches and each is applied once, duplicates (also two copies in one batch) without
 * effect, poison alone in the dead-letter queue with its reason while the rest of its batch is applied, and a batch
 * whose common transaction fails is applied one event at a time, so that only the event that cannot be applied is
 * poison. The binding starts only once the test has filled the queue, so the batches are full; two lanes (the default
 * is eight) so that the 23 deliveries share few lanes and batches larger than one form on any machine (with eight, a
 * CI run saw every batch hold a single delivery).
 */
@SpringBootTest(classes = { RelayTestApplication.class, InboxBatchIntegrationTests.Handlers.class }, properties = {
        "spring.application.name=inbox-batch-test",
        "messaging.inbox.batch.size=8",
        "messaging.inbox.batch.lanes=2",
        "spring.cloud.stream.rabbit.default.consumer.prefetch=16",
        "spring.cloud.stream.default.consumer.concurrency=1",
        "spring.cloud.stream.bindings.inbox-in-0.consumer.auto-startup=false" })
@FreshInfrastructure
class InboxBatchIntegrationTests extends ConsumerTestSupport {

    private static final String QUEUE = "order.events.inbox-batch-test";
    private static final AtomicLong ORDERS = new AtomicLong();

    @Autowired
    BindingsLifecycleController bindings;

    @Autowired
    DatabaseClient db;

    @Autowired
    ReactiveTransactionManager transactionManager;

    @Autowired
    OutboxWriter outbox;

    @Autowired
    OutboxHandOff handOff;

    @Override
    protected String replyExchange() {
        return OrderEvent.EXCHANGE;
    }

    @BeforeEach
    void createCounters() {
        database.execute("create table if not exists order_counters "
                + "(order_id bigint primary key, applied integer not null default 0)");
        bindings.stop(InboxBinding.NAME);
    }

    @Test
    void waitingEventsAreAppliedOnceInBatchesAndAPoisonMessageGoesAloneToTheDeadLetterQueue() {
        List<OrderCreated> orders = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            orders.add(newOrder());
        }
        double duplicatesBefore = counter("events.duplicates", null);
        double poisonBefore = counter("events.poison", null);
        long batchesBefore = batches().count();

        orders.subList(0, 10).forEach(broker::publish);
        broker.publish(orders.get(3));
        broker.publish(orders.get(3));
        broker.publishToQueue(QUEUE, MessageBuilder.withBody("{\"event_id\": ".getBytes(StandardCharsets.UTF_8))
                .copyProperties(TestEvents.message(newOrder()).getMessageProperties()).build());
        orders.subList(10, 20).forEach(broker::publish);
        await().atMost(PATIENCE).until(() -> broker.ready(QUEUE) == 23);
        bindings.start(InboxBinding.NAME);

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(orders).allSatisfy(order ->
                assertThat(applied(order.orderId())).as("order %d", order.orderId()).isEqualTo(1)));
        Message dead = awaitDeadLetter();
        assertThat((String) dead.getMessageProperties().getHeader(EventHeaders.POISON_REASON))
                .contains("malformed JSON");
        assertThat((String) dead.getMessageProperties().getHeader(RepublishMessageRecoverer.X_EXCEPTION_MESSAGE))
                .contains("malformed JSON");
        assertThat((String) dead.getMessageProperties().getHeader(EventHeaders.EVENT_TYPE)).isEqualTo("OrderCreated");
        assertThat(dead.getMessageProperties().getMessageId()).isNotBlank();
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(counter("events.duplicates", null) - duplicatesBefore).isEqualTo(2));
        assertThat(counter("events.poison", null) - poisonBefore).isEqualTo(1);
        assertThat(batches().count() - batchesBefore).as("23 deliveries in batches of at most 8").isBetween(3L, 22L);
        // Batches form from what arrived while the one before was applied: how large they grow depends on the
        // machine's timing (a loaded CI machine saw 7 at most), never beyond the size.
        assertThat(batches().max()).as("the largest batch").isBetween(2.0, 8.0);
        assertThat(orders).allSatisfy(order -> assertThat(database.count(
                "select count(*) from processed_events where event_id = ?", order.eventId())).isEqualTo(1));
        awaitQueueDrained(QUEUE);
        assertThat(broker.ready(QUEUE + ".dlq")).isZero();
    }

    @Test
    void aBatchWhoseTransactionFailsIsAppliedOneEventAtATimeAndOnlyTheBadEventIsPoison() {
        List<OrderCreated> orders = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            orders.add(newOrder());
        }
        // No counter row: the handler fails for this one while the database answers.
        OrderCreated bad = new OrderCreated(UUID.randomUUID(), ORDERS.incrementAndGet(), 7L, List.of(1L), null,
                Instant.now());
        double poisonBefore = counter("events.poison", null);

        orders.subList(0, 3).forEach(broker::publish);
        broker.publish(bad);
        orders.subList(3, 7).forEach(broker::publish);
        await().atMost(PATIENCE).until(() -> broker.ready(QUEUE) == 8);
        bindings.start(InboxBinding.NAME);

        Message dead = awaitDeadLetter();
        assertThat(dead.getMessageProperties().getMessageId()).isEqualTo(bad.eventId().toString());
        assertThat((String) dead.getMessageProperties().getHeader(EventHeaders.POISON_REASON))
                .contains("no counter for order " + bad.orderId());
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(orders).allSatisfy(order ->
                assertThat(applied(order.orderId())).isEqualTo(1)));
        assertThat(database.count("select count(*) from processed_events where event_id = ?", bad.eventId()))
                .isZero();
        assertThat(counter("events.poison", null) - poisonBefore).isEqualTo(1);
        awaitQueueDrained(QUEUE);
    }

    /**
     * Two batches of the same two orders, delivered in opposite orders (two consumers, or the queues of two
     * producers): applied in ascending order of their orders, they queue for the rows instead of each holding the
     * row the other one wants, and both commit.
     */
    @Test
    void twoBatchesOfTheSameOrdersDeliveredInOppositeOrdersQueueAndBothCommit() {
        List<List<Long>> lockedAheadFor = Collections.synchronizedList(new ArrayList<>());
        InboxTransaction transaction = transaction(Optional.empty(), events -> Mono.fromRunnable(
                () -> lockedAheadFor.add(events.stream().map(DomainEvent::orderId).toList())));
        OrderCreated one = newOrder();
        OrderCreated other = newOrder();
        EventHandler<OrderCreated> slow = EventHandler.of(OrderCreated.class, order -> count(order.orderId())
                .then(Mono.delay(Duration.ofMillis(100)))
                .then(Mono.<DomainEvent>empty()));

        List<String> outcomes = Flux.merge(
                        outcome(transaction.applyAll(List.of(event(one), event(other)), List.of(slow, slow))),
                        outcome(transaction.applyAll(List.of(event(another(other)), event(another(one))),
                                List.of(slow, slow))))
                .collectList()
                .block(PATIENCE);

        assertThat(outcomes).containsExactly("committed", "committed");
        assertThat(applied(one.orderId())).isEqualTo(2);
        assertThat(applied(other.orderId())).isEqualTo(2);
        assertThat(lockedAheadFor).as("each batch's events, in the order they are applied")
                .containsExactly(List.of(one.orderId(), other.orderId()), List.of(one.orderId(), other.orderId()));
    }

    @Test
    void theEventsOfABatchAreAppliedInAscendingOrderOfTheirOrdersAndInDeliveryOrderWithinOne() {
        OrderCreated low = newOrder();
        OrderCreated high = newOrder();
        List<InboundEvent> delivered = List.of(event(high), event(low), event(another(low)));

        assertThat(InboxTransaction.byOrder(delivered)).containsExactly(1, 2, 0);
    }

    /**
     * Where an effect locks rows the service did not lock ahead, two batches can still wait for each other: here each
     * event's effect counts its own order and then the other one. Without a batch lock timeout (the default) they
     * wait as queueing batches do, and PostgreSQL's deadlock detection tells the circle from a queue: it ends one of
     * the two after {@code deadlock_timeout} (1 s), well before the session's lock timeout, and the other commits.
     */
    @Test
    void twoBatchesThatStillLockTheSameRowsInOppositeOrdersAreToldApartByDeadlockDetection() {
        InboxTransaction transaction = transaction(Optional.empty());
        OrderCreated one = newOrder();
        OrderCreated other = newOrder();
        EventHandler<OrderCreated> crossing = crossing(one, other);

        long started = System.nanoTime();
        List<String> outcomes = crossingBatches(transaction, one, other, crossing);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(outcomes).as("one batch commits, PostgreSQL ends the other")
                .containsOnlyOnce("committed")
                .anyMatch(outcome -> outcome.contains("deadlock detected"));
        assertThat(took).as("after deadlock detection (1s), before the session's lock timeout (5s)")
                .isBetween(Duration.ofMillis(900), Duration.ofMillis(4500));
        assertThat(applied(one.orderId())).as("the batch that commits counts both orders once").isEqualTo(1);
        assertThat(applied(other.orderId())).isEqualTo(1);
    }

    /** With a batch lock timeout, the same two batches give up sooner than deadlock detection would end them. */
    @Test
    void aBatchLockTimeoutGivesUpOnTwoSuchBatchesBeforeDeadlockDetection() {
        InboxTransaction transaction = transaction(Optional.of(Duration.ofMillis(100)));
        OrderCreated one = newOrder();
        OrderCreated other = newOrder();
        EventHandler<OrderCreated> crossing = crossing(one, other);

        long started = System.nanoTime();
        List<String> outcomes = crossingBatches(transaction, one, other, crossing);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(outcomes).as("each batch commits or gives up waiting for a lock; no deadlock")
                .allMatch(outcome -> outcome.equals("committed") || outcome.contains("lock timeout"))
                .anyMatch(outcome -> outcome.contains("lock timeout"));
        assertThat(took).as("well before deadlock detection (1s) would have ended the wait")
                .isLessThan(Duration.ofMillis(900));
        long committed = outcomes.stream().filter("committed"::equals).count();
        assertThat(applied(one.orderId())).as("a batch that commits counts both orders once").isEqualTo(committed);
        assertThat(applied(other.orderId())).isEqualTo(committed);
    }

    /**
     * The same two batches, in a service that locks ahead both orders' rows in ascending order: both commit. The lock
     * ahead sees each batch's new events, in the order they are applied.
     */
    @Test
    void aServiceThatLocksAheadKeepsTwoBatchesFromWaitingForEachOther() {
        OrderCreated one = newOrder();
        OrderCreated other = newOrder();
        List<List<Long>> lockedAheadFor = Collections.synchronizedList(new ArrayList<>());
        InboxTransaction transaction = transaction(Optional.empty(), events -> {
            lockedAheadFor.add(events.stream().map(DomainEvent::orderId).toList());
            return db.sql("select order_id from order_counters where order_id = any(:ids) order by order_id for update")
                    .bind("ids", new Long[] { one.orderId(), other.orderId() })
                    .fetch()
                    .all()
                    .then();
        });
        EventHandler<OrderCreated> crossing = crossing(one, other);

        List<String> outcomes = crossingBatches(transaction, one, other, crossing);

        assertThat(outcomes).containsExactly("committed", "committed");
        assertThat(applied(one.orderId())).isEqualTo(2);
        assertThat(applied(other.orderId())).isEqualTo(2);
        assertThat(lockedAheadFor).containsExactlyInAnyOrder(List.of(one.orderId()), List.of(other.orderId()));
    }

    /**
     * What a lock-ahead keeps in the batch's transaction ({@link LockAhead#keep}) is there for each effect of that batch
     * ({@link LockAhead#kept}), and only in that transaction: an event applied on its own, in a transaction of its
     * own, finds nothing.
     */
    @Test
    void whatALockAheadKeepsIsFoundByTheEffectsOfItsBatchOnly() {
        OrderCreated one = newOrder();
        OrderCreated other = newOrder();
        OrderCreated alone = newOrder();
        InboxTransaction transaction = transaction(Optional.empty(), events -> LockAhead.keep(LockedAhead.class,
                new LockedAhead(events.stream().map(DomainEvent::orderId).toList())));
        List<String> found = Collections.synchronizedList(new ArrayList<>());
        EventHandler<OrderCreated> finding = EventHandler.of(OrderCreated.class, order -> LockAhead
                .kept(LockedAhead.class)
                .map(kept -> order.orderId() + " found " + kept.orderIds())
                .defaultIfEmpty(order.orderId() + " found nothing")
                .doOnNext(found::add)
                .then(count(order.orderId()))
                .then(Mono.<DomainEvent>empty()));

        assertThat(transaction.applyAll(List.of(event(other), event(one)), List.of(finding, finding)).block(PATIENCE))
                .containsExactly(true, true);
        assertThat(transaction.apply(event(alone), finding).block(PATIENCE)).isTrue();

        List<Long> batch = List.of(one.orderId(), other.orderId());
        assertThat(found).containsExactly(one.orderId() + " found " + batch, other.orderId() + " found " + batch,
                alone.orderId() + " found nothing");
        assertThat(LockAhead.kept(LockedAhead.class).blockOptional(PATIENCE)).as("outside any transaction").isEmpty();
        assertThat(List.of(one, other, alone)).allSatisfy(order -> assertThat(applied(order.orderId())).isEqualTo(1));
    }

    /**
     * With the relay's hand-off on (the default), the replies of a batch, and of an event applied alone, are written
     * leased and without a notification, and handed to the relay once their transaction has committed: they are
     * sent while their lease still runs, so the relay's sweep (polling every second here) could not have taken them.
     */
    @Test
    void theRepliesOfATransactionAreHandedToTheRelayOnceItCommits() {
        assertThat(handOff.isOn()).isTrue();
        InboxTransaction transaction = new InboxTransaction(new ProcessedEvents(db),
                TransactionalOperator.create(transactionManager), outbox, CrashPoints.none(), Optional.empty(),
                LockAhead.nothing(), handOff.writer());
        List<UUID> replies = Collections.synchronizedList(new ArrayList<>());
        EventHandler<OrderCreated> answering = EventHandler.of(OrderCreated.class, order -> count(order.orderId())
                .thenReturn(new OrderCancelled(UUID.randomUUID(), order.orderId(), "answered", Instant.now()))
                .doOnNext(reply -> replies.add(reply.eventId())));
        OrderCreated one = newOrder();
        OrderCreated other = newOrder();
        OrderCreated alone = newOrder();

        assertThat(transaction.applyAll(List.of(event(one), event(other)), List.of(answering, answering))
                .block(PATIENCE)).containsExactly(true, true);
        assertThat(transaction.apply(event(alone), answering).block(PATIENCE)).isTrue();

        assertThat(replies).hasSize(3);
        String these = replies.stream().map(id -> "'" + id + "'").collect(Collectors.joining(",", "id in (", ")"));
        await().atMost(Duration.ofSeconds(10)).until(() -> database.count(
                "select count(*) from outbox_events where " + these + " and sent_at is not null") == 3);
        assertThat(database.count("select count(*) from outbox_events where " + these + " and next_attempt_at <= now()"))
                .as("still leased: sent by the hand-off, not by the sweep").isZero();
    }

    /** What the lock-ahead of {@link #whatALockAheadKeepsIsFoundByTheEffectsOfItsBatchOnly} keeps. */
    private record LockedAhead(List<Long> orderIds) {
    }

    /** Each event counts its own order, waits, then counts the other of the two. */
    private EventHandler<OrderCreated> crossing(OrderCreated one, OrderCreated other) {
        return EventHandler.of(OrderCreated.class, order -> count(order.orderId())
                .then(Mono.delay(Duration.ofMillis(300)))
                .then(count(order.orderId() == one.orderId() ? other.orderId() : one.orderId()))
                .then(Mono.<DomainEvent>empty()));
    }

    private Mono<Long> count(long orderId) {
        return db.sql("update order_counters set applied = applied + 1 where order_id = :orderId")
                .bind("orderId", orderId)
                .fetch()
                .rowsUpdated();
    }

    /** Two batches of one event each, {@code one}'s and {@code other}'s, applied at once. */
    private static List<String> crossingBatches(InboxTransaction transaction, OrderCreated one, OrderCreated other,
            EventHandler<OrderCreated> crossing) {
        return Flux.merge(
                        outcome(transaction.applyAll(List.of(event(one)), List.of(crossing))),
                        outcome(transaction.applyAll(List.of(event(other)), List.of(crossing))))
                .collectList()
                .block(PATIENCE);
    }

    /**
     * @param lockTimeout the batch lock timeout; none waits as long as the session's lock timeout (5 s), longer than
     *                    deadlock detection (1 s): had two batches waited for each other, PostgreSQL would end one with
     *                    a deadlock, and the test would see it
     */
    private InboxTransaction transaction(Optional<Duration> lockTimeout) {
        return transaction(lockTimeout, LockAhead.nothing());
    }

    private InboxTransaction transaction(Optional<Duration> lockTimeout, LockAhead lockAhead) {
        return new InboxTransaction(new ProcessedEvents(db), TransactionalOperator.create(transactionManager), outbox,
                CrashPoints.none(), lockTimeout, lockAhead, OutboxHandOff.Writer.NONE);
    }

    /** Another event about the same order (its own event id). */
    private static OrderCreated another(OrderCreated order) {
        return new OrderCreated(UUID.randomUUID(), order.orderId(), order.userId(), order.skuIds(), null, Instant.now());
    }

    private static InboundEvent event(OrderCreated order) {
        return new InboundEvent(order.eventId(), "OrderCreated", order, null);
    }

    private static Mono<String> outcome(Mono<List<Boolean>> batch) {
        return batch.map(applied -> "committed").onErrorResume(failure -> Mono.just(String.valueOf(failure)));
    }

    private OrderCreated newOrder() {
        long orderId = ORDERS.incrementAndGet();
        database.execute("insert into order_counters (order_id) values (?)", orderId);
        return new OrderCreated(UUID.randomUUID(), orderId, 7L, List.of(1L), null, Instant.now());
    }

    private long applied(long orderId) {
        return database.count("select applied from order_counters where order_id = ?", orderId);
    }

    private DistributionSummary batches() {
        return meters.get("events.batch.size").summary();
    }

    private Message awaitDeadLetter() {
        return await().atMost(PATIENCE).until(() -> broker.receive(QUEUE + ".dlq",
                Duration.ofMillis(500)), message -> message != null);
    }

    /** The service under test: counts each order it applies, and fails for an order it has no counter for. */
    @Configuration(proxyBeanMethods = false)
    static class Handlers {

        @Bean
        EventHandler<OrderCreated> countOrders(DatabaseClient db) {
            return EventHandler.of(OrderCreated.class, order -> db
                    .sql("update order_counters set applied = applied + 1 where order_id = :orderId")
                    .bind("orderId", order.orderId())
                    .fetch()
                    .rowsUpdated()
                    .flatMap(updated -> updated == 1 ? Mono.<DomainEvent>empty()
                            : Mono.error(new IllegalStateException("no counter for order " + order.orderId()))));
        }
    }
}
