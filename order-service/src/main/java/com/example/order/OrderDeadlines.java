package com.example.order;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.OrderCancelled;
import com.example.messaging.outbox.OutboxWriter;
import com.example.order.OrderStateMachine.State;
import com.example.order.OrderStateMachine.Transition;
import com.example.order.persistence.OrderRepository;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Rejects the orders that are still CREATED after {@code orders.deadline} (docs/architecture.md, "Deadlines").
 * Each batch of expired orders is claimed with {@code FOR UPDATE SKIP LOCKED} in a transaction of its own, in
 * which every order's rejection, its history row and its OrderCancelled commit together. So any number of
 * instances may sweep at once and each order is rejected by one of them, once. A reply being applied holds the
 * order's row: the sweep passes the order by and finds it final, or still CREATED, next time. A reply that comes
 * after the rejection waits for the row and then meets a final order with TIMED_OUT steps (OrderStateMachine).
 */
@Service
class OrderDeadlines {

    /** Orders claimed (and locked) per transaction: a reply waits at most for one batch. */
    static final int BATCH_SIZE = 100;
    /** The event type of the deadline's row in order_history; its event id is the OrderCancelled it caused. */
    static final String HISTORY_EVENT_TYPE = "Deadline";

    private static final Logger log = LoggerFactory.getLogger(OrderDeadlines.class);
    /** A batch's transaction that takes longer (a database that stopped answering) is rolled back. */
    private static final Duration BATCH_TIMEOUT = Duration.ofSeconds(30);

    private final OrderRepository orders;
    private final OutboxWriter outbox;
    private final TransactionalOperator transaction;
    private final FinalOrders finalOrders;
    private final Duration deadline;
    private final Counter rejected;

    OrderDeadlines(OrderRepository orders, OutboxWriter outbox, TransactionalOperator transaction,
            FinalOrders finalOrders, DeadlineProperties properties, MeterRegistry meters) {
        this.orders = orders;
        this.outbox = outbox;
        this.transaction = transaction;
        this.finalOrders = finalOrders;
        this.deadline = properties.deadline();
        this.rejected = Counter.builder("orders.deadline.rejected")
                .description("Orders rejected because they were still CREATED at their deadline").register(meters);
    }

    /** Rejects every order past its deadline, batch after batch until one is not full; emits how many it rejected. */
    Mono<Long> sweep() {
        return rejectBatch()
                .expand(batch -> batch.size() < BATCH_SIZE ? Mono.empty() : rejectBatch())
                .reduce(0L, (total, batch) -> total + batch.size());
    }

    /** One transaction: claims up to a batch of expired orders and rejects them; emits them after the commit. */
    Mono<List<Order>> rejectBatch() {
        // The claimed rows are read completely before the first update: R2DBC runs one statement at a time per
        // connection, so updating while the claim's rows still stream in would wait for itself.
        Mono<List<Order>> batch = orders.claimExpired(deadline, BATCH_SIZE).collectList()
                .flatMap(claimed -> Flux.fromIterable(claimed).concatMap(this::reject).collectList());
        return transaction.transactional(batch).timeout(BATCH_TIMEOUT).doOnNext(this::afterCommit);
    }

    private Mono<Order> reject(Order order) {
        State before = State.of(order);
        Transition expired = OrderStateMachine.expire(before, reason(before, deadline));
        if (!expired.applied()) {
            // Claimed under its row lock as CREATED, so this does not happen; if it did, nothing is written.
            log.warn("Order {}: deadline ignored: {}", order.id(), expired.ignoredBecause());
            return Mono.empty();
        }
        State after = expired.next();
        OrderCancelled cancelled = new OrderCancelled(UUID.randomUUID(), order.id(), after.rejectionReason(),
                Instant.now());
        return orders.moveTo(order, after, Pricing.NONE, cancelled.eventId(), HISTORY_EVENT_TYPE)
                .then(outbox.append(cancelled))
                .thenReturn(order);
    }

    private void afterCommit(List<Order> rejectedOrders) {
        for (Order order : rejectedOrders) {
            log.info("Order {} rejected: {}", order.id(), reason(State.of(order), deadline));
            rejected.increment();
            finalOrders.reached(order, OrderStatus.REJECTED);
        }
    }

    /** E.g. "deadline: no answer from coupon and risk within 10m". */
    static String reason(State state, Duration deadline) {
        List<String> silent = Arrays.stream(Step.values())
                .filter(state::waitingFor)
                .map(step -> step.name().toLowerCase(Locale.ROOT))
                .toList();
        if (silent.isEmpty()) {
            return "deadline: not final within " + text(deadline);
        }
        String names = silent.size() == 1 ? silent.get(0)
                : String.join(", ", silent.subList(0, silent.size() - 1)) + " and " + silent.get(silent.size() - 1);
        return "deadline: no answer from " + names + " within " + text(deadline);
    }

    /** A duration as it is configured: 10m, 30s, 1500ms. */
    static String text(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 1000 != 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        if (seconds != 0 && seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds != 0 && seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        if (seconds != 0 && seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
