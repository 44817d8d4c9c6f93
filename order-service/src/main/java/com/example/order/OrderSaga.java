package com.example.order;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionSynchronization;

import com.example.events.DomainEvent;
import com.example.events.OrderCancelled;
import com.example.events.PaymentRequested;
import com.example.messaging.inbox.LockAhead;
import com.example.messaging.inbox.PoisonMessageException;
import com.example.order.OrderStateMachine.State;
import com.example.order.OrderStateMachine.Transition;
import com.example.order.persistence.OrderRepository;
import com.example.order.persistence.OrderRepository.HistoryEntry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Applies the downstream services' replies to their order with the {@link OrderStateMachine}. It runs
 * inside the inbox transaction of the reply: the order row is locked, the new state, the history row
 * and the order's own events (an OrderCancelled when it was just rejected, a PaymentRequested when the first three
 * steps have just said yes) commit together with the reply's processed_events row. In a batch of replies, the rows
 * of all their orders are locked and read once, ahead ({@link #lockAhead}), and what the replies did is written once,
 * just before the batch commits: each order's row as its last reply left it, and one history row per reply.
 */
@Service
public class OrderSaga {

    private static final Logger log = LoggerFactory.getLogger(OrderSaga.class);

    private final OrderRepository orders;
    private final MeterRegistry meters;
    private final FinalOrders finalOrders;
    private final boolean writeBehind;

    /**
     * @param writeBehind whether a batch writes what its replies did once, before it commits, rather than each reply
     *                    its own order and history row ({@code orders.replies.write-behind=false}, a switch for
     *                    measuring what it saves)
     */
    OrderSaga(OrderRepository orders, MeterRegistry meters, FinalOrders finalOrders,
            @Value("${orders.replies.write-behind:true}") boolean writeBehind) {
        this.orders = orders;
        this.meters = meters;
        this.finalOrders = finalOrders;
        this.writeBehind = writeBehind;
    }

    /** The events to emit in answer to the reply: an OrderCancelled, a PaymentRequested, or nothing. */
    public Flux<DomainEvent> apply(DomainEvent reply) {
        StepReply stepReply = StepReply.of(reply);
        return readAhead().defaultIfEmpty(Batch.alone()).flatMapMany(batch -> {
            Order read = batch.current(reply.orderId());
            Mono<Order> order = read != null ? Mono.just(read) : orders.lockById(reply.orderId())
                    .switchIfEmpty(Mono.error(() -> new PoisonMessageException(reply.eventType() + " for order "
                            + reply.orderId() + ", which does not exist")));
            return order.flatMapMany(current -> apply(current, reply, stepReply, batch));
        });
    }

    /**
     * Before a batch of replies is applied ({@link LockAhead}): locks the rows of all their orders in one statement,
     * in ascending order of their ids, and keeps what it read as a resource of the batch's transaction. Each reply of
     * the batch then starts from its order as the replies before it left it, with no statement of its own: what they
     * did is written in one statement when the transaction commits (a {@link TransactionSynchronization#beforeCommit},
     * on the batch's connection, inside its transaction; if that statement fails the whole batch rolls back).
     */
    public Mono<Void> lockAhead(List<DomainEvent> replies) {
        List<Long> orderIds = replies.stream().map(DomainEvent::orderId).distinct().toList();
        return orders.lockAll(orderIds)
                .collectMap(Order::id, order -> order, ConcurrentHashMap<Long, Order>::new)
                .flatMap(read -> {
                    Batch batch = new Batch(read, writeBehind);
                    return writeBehind ? LockAhead.keep(Batch.class, batch, written -> written.write(orders))
                            : LockAhead.keep(Batch.class, batch);
                });
    }

    /** The batch this reply belongs to; empty for a reply applied on its own. */
    private static Mono<Batch> readAhead() {
        return LockAhead.kept(Batch.class);
    }

    private Flux<DomainEvent> apply(Order order, DomainEvent reply, StepReply stepReply, Batch batch) {
        Pricing pricing = Pricing.of(reply);
        State before = State.of(order, pricing);
        Transition transition = OrderStateMachine.apply(before, stepReply);
        if (!transition.applied()) {
            log.warn("Order {}: {} {} ignored: {}", order.id(), reply.eventType(), reply.eventId(),
                    transition.ignoredBecause());
            Counter.builder("orders.replies.ignored").tag("event_type", reply.eventType()).register(meters)
                    .increment();
            HistoryEntry ignored = new HistoryEntry(order.id(), reply.eventId(), reply.eventType(), before,
                    transition.ignoredBecause());
            Mono<Void> record = batch.writesBehind() ? Mono.fromRunnable(() -> batch.ignored(ignored))
                    : orders.recordHistory(ignored);
            return record.thenMany(Flux.empty());
        }
        State after = transition.next();
        // One INFO line per order, when it ends; the steps in between are in the order's history table.
        if (after.status() != before.status()) {
            log.info("Order {}: {} -> {} {}", order.id(), reply.eventType(), after.status(), after.steps());
        } else {
            log.debug("Order {}: {} -> {} {}", order.id(), reply.eventType(), after.status(), after.steps());
        }
        Mono<Void> write = batch.writesBehind()
                ? Mono.fromRunnable(() -> batch.moved(moved(order, after, pricing),
                        new HistoryEntry(order.id(), reply.eventId(), reply.eventType(), after, null)))
                : orders.moveTo(order, after, pricing, reply.eventId(), reply.eventType()).doOnNext(batch::read)
                        .then();
        write = write.then(Mono.fromRunnable(() -> countIfFinal(order, before, after)));
        if (transition.cancel()) {
            return write.thenMany(Flux.just(new OrderCancelled(UUID.randomUUID(), order.id(),
                    after.rejectionReason(), Instant.now())));
        }
        if (transition.requestPayment()) {
            return write.thenMany(Flux.just(new PaymentRequested(UUID.randomUUID(), order.id(), order.userId(),
                    after.amountCents(), Instant.now())));
        }
        return write.thenMany(Flux.empty());
    }

    /**
     * The order as {@code after} leaves it, with what the reply says about its price over what was known; the same
     * row {@link OrderRepository#moveTo} would return, but for {@code updatedAt}, which the database sets when the
     * batch writes it.
     */
    private static Order moved(Order order, State after, Pricing reply) {
        Pricing known = reply.over(order.pricing());
        return new Order(order.id(), order.userId(), after.status(), order.skuIds(), order.couponCode(),
                order.createdAt(), order.updatedAt(), after.step(Step.INVENTORY), after.step(Step.COUPON),
                after.step(Step.RISK), after.step(Step.PAYMENT), after.rejectionReason(), known,
                known.amountCents());
    }

    private void countIfFinal(Order order, State before, State after) {
        if (before.status() == OrderStatus.CREATED && after.status() != OrderStatus.CREATED) {
            finalOrders.reached(order, after.status());
        }
    }

    /**
     * The replies of one inbox transaction: the orders it locked ahead, as the replies applied so far left them, and,
     * when it writes behind, what those replies did, to be written before it commits. The inbox applies a batch's
     * replies one after the other, never two at once.
     */
    private static final class Batch {

        private final Map<Long, Order> orders;
        private final boolean writesBehind;
        private final Map<Long, Order> moved = new LinkedHashMap<>();
        private final List<HistoryEntry> history = new ArrayList<>();

        Batch(Map<Long, Order> orders, boolean writesBehind) {
            this.orders = orders;
            this.writesBehind = writesBehind;
        }

        /** A reply applied on its own: nothing read ahead, every write at once. */
        static Batch alone() {
            return new Batch(new ConcurrentHashMap<>(), false);
        }

        Order current(long orderId) {
            return orders.get(orderId);
        }

        boolean writesBehind() {
            return writesBehind;
        }

        /** The order as a reply just wrote it. */
        void read(Order order) {
            orders.put(order.id(), order);
        }

        synchronized void moved(Order order, HistoryEntry entry) {
            orders.put(order.id(), order);
            moved.put(order.id(), order);
            history.add(entry);
        }

        synchronized void ignored(HistoryEntry entry) {
            history.add(entry);
        }

        synchronized Mono<Void> write(OrderRepository repository) {
            return history.isEmpty() ? Mono.empty()
                    : repository.writeAll(List.copyOf(moved.values()), List.copyOf(history));
        }
    }
}
