package com.example.order;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.function.LongPredicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.messaging.outbox.OutboundEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.messaging.relay.OutboxHandOff;
import com.example.order.OrderStateMachine.State;
import com.example.order.OrderStateMachine.Transition;
import com.example.order.persistence.OrderRepository;
import com.example.service.faults.CrashPoint;
import com.example.service.faults.CrashPoints;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.observability.DefaultSignalListener;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Places orders idempotently. The unique constraint on (user id, idempotency key) decides every race:
 * the insert that wins writes the order, its lines and its OrderCreated outbox row in one statement;
 * a request that loses (or comes later) reads the winner's order and compares fingerprints.
 */
@Service
public class OrderService {

    /** Where a client's request has made its order but will never hear so: its retry must be a replay. */
    static final CrashPoint AFTER_COMMIT_BEFORE_RESPONSE = new CrashPoint("order.after-commit-before-response",
            "order-service, after the order transaction commits, before the HTTP response");

    private static final Logger log = LoggerFactory.getLogger(OrderService.class);

    private final OrderRepository orders;
    private final OutboxWriter outbox;
    private final TransactionalOperator transaction;
    private final CrashPoints crashPoints;
    /** Publishes each new order's OrderCreated right after its commit, or leaves it to the relay's sweep. */
    private final OutboxHandOff.Writer handOff;
    private final Counter created;
    private final Counter replayed;
    private final Counter keyReused;

    OrderService(OrderRepository orders, OutboxWriter outbox, TransactionalOperator transaction,
            CrashPoints crashPoints, MeterRegistry meters, ObjectProvider<OutboxHandOff> handOff) {
        this.orders = orders;
        this.handOff = OutboxHandOff.writer(handOff);
        this.outbox = outbox;
        this.transaction = transaction;
        this.crashPoints = crashPoints;
        this.created = Counter.builder("orders.placed").description("Orders created (first request of an intent)")
                .register(meters);
        this.replayed = Counter.builder("orders.replayed")
                .description("POST /orders answered with an existing order (same key, same payload)").register(meters);
        this.keyReused = Counter.builder("orders.idempotency_key_reused")
                .description("POST /orders refused: key already used for a different payload").register(meters);
    }

    public Mono<Placement> place(PlaceOrder command) {
        String fingerprint = command.fingerprint();
        // One instant for the order's creation and its event; microseconds, what the database keeps.
        Instant createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
        // The order's id is the database's to give: the statement writes it into the event (its order_id here is 0).
        OrderCreated event = new OrderCreated(UUID.randomUUID(), 0L, command.userId(), command.skuIds(),
                command.couponCode(), createdAt);
        // A new order's OrderCreated is the first event of its aggregate: nothing it must wait for in the outbox.
        Mono<Placement> placement = orders
                .insertIfAbsent(command, fingerprint, createdAt, OutboundEvent.of(event).causedBy(command.traceparent()),
                        handOff.lease())
                .map(placed -> placed.inserted() ? new Placement.Created(placed.stored().order())
                        : existing(placed.stored(), fingerprint))
                .switchIfEmpty(Mono.defer(() -> existing(command, fingerprint)));
        // One statement, atomic on its own: the order, its lines, its history and its OrderCreated commit together
        // without a transaction around them, and the statement answers only after that commit (the driver completes
        // it when PostgreSQL is ready for the next query), so the crash point below is really after it.
        // tap, not doOnNext: it restores the request id into the MDC for the log line (limited context propagation).
        return placement.tap(() -> new DefaultSignalListener<>() {

            @Override
            public void doOnNext(Placement committed) {
                afterCommit(committed, event.eventId());
            }
        });
    }

    /** The intent's order was committed after the statement that met it started, so it could not answer it. */
    private Mono<Placement> existing(PlaceOrder command, String fingerprint) {
        // The conflicting insert has committed (ON CONFLICT waited for it), so this read sees the winner.
        return orders.findByIntent(command.userId(), command.idempotencyKey())
                .switchIfEmpty(Mono.error(() -> new IllegalStateException("order for intent of user "
                        + command.userId() + " vanished after a conflict")))
                .map(found -> existing(found, fingerprint));
    }

    private static Placement existing(OrderRepository.StoredOrder found, String fingerprint) {
        return found.fingerprint().equals(fingerprint) ? new Placement.Replayed(found.order())
                : new Placement.KeyReused(found.order());
    }

    private void afterCommit(Placement placement, UUID createdEventId) {
        if (placement instanceof Placement.Created) {
            created.increment();
            log.info("Order {} created for user {}", placement.order().id(), placement.order().userId());
            crashPoints.reach(AFTER_COMMIT_BEFORE_RESPONSE);
            handOff.offer(List.of(createdEventId));
        } else if (placement instanceof Placement.Replayed) {
            replayed.increment();
            log.debug("Replayed order {} for user {}", placement.order().id(), placement.order().userId());
        } else {
            keyReused.increment();
            log.info("Refused reuse of the idempotency key of order {} by user {} for a different request",
                    placement.order().id(), placement.order().userId());
        }
    }

    /**
     * Cancels a CREATED or CONFIRMED order that {@code visible} lets the caller see (its owner, or an operator), in
     * one transaction with its OrderCancelled and history row; the row lock orders it with the replies and the
     * deadline. Empty when there is no such order for the caller.
     */
    public Mono<Cancellation> cancel(long orderId, LongPredicate visible, String by) {
        Mono<Cancellation.Outcome> cancel = orders.lockById(orderId)
                .filter(order -> visible.test(order.userId()))
                .flatMap(order -> cancel(order, by));
        return transaction.transactional(cancel)
                .flatMap(outcome -> orders.findById(orderId).map(now -> new Cancellation(outcome, now)));
    }

    private Mono<Cancellation.Outcome> cancel(Order order, String by) {
        Transition cancelled = OrderStateMachine.cancel(State.of(order));
        if (!cancelled.applied()) {
            return Mono.just(order.status() == OrderStatus.CANCELLED ? Cancellation.Outcome.ALREADY_CANCELLED
                    : Cancellation.Outcome.FINAL);
        }
        OrderCancelled event = new OrderCancelled(UUID.randomUUID(), order.id(), "cancelled by " + by, Instant.now());
        log.info("Order {} cancelled by {} (was {})", order.id(), by, order.status());
        return orders.moveTo(order, cancelled.next(), Pricing.NONE, event.eventId(), "Cancellation")
                .then(outbox.append(event))
                .thenReturn(Cancellation.Outcome.CANCELLED);
    }

    public Mono<Order> find(long orderId) {
        return orders.findById(orderId);
    }

    public Mono<Order> findByIntent(long userId, UUID idempotencyKey) {
        return orders.findByIntent(userId, idempotencyKey).map(OrderRepository.StoredOrder::order);
    }

    /** The orders in {@code status} placed more than {@code olderThan} ago, oldest first: what is stuck, and where. */
    public Flux<Order> findOlderThan(OrderStatus status, Duration olderThan, int limit) {
        return orders.findOlderThan(status, olderThan, limit);
    }

}
