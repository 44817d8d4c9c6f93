package com.example.order;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;

import com.example.events.DomainEvent;
import com.example.events.OrderCancelled;
import com.example.events.PaymentRequested;
import com.example.messaging.inbox.PoisonMessageException;
import com.example.order.OrderStateMachine.State;
import com.example.order.OrderStateMachine.Transition;
import com.example.order.persistence.OrderRepository;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Applies the downstream services' replies to their order with the {@link OrderStateMachine}. It runs
 * inside the inbox transaction of the reply: the order row is locked, the new state, the history row
 * and the order's own events (an OrderCancelled when it was just rejected, a PaymentRequested when the first three
 * steps have just said yes) commit together with the reply's processed_events row. In a batch of replies, the rows
 * of all their orders are locked and read once, ahead ({@link #lockAhead}).
 */
@Service
public class OrderSaga {

    private static final Logger log = LoggerFactory.getLogger(OrderSaga.class);

    private final OrderRepository orders;
    private final MeterRegistry meters;
    private final FinalOrders finalOrders;

    OrderSaga(OrderRepository orders, MeterRegistry meters, FinalOrders finalOrders) {
        this.orders = orders;
        this.meters = meters;
        this.finalOrders = finalOrders;
    }

    /** The events to emit in answer to the reply: an OrderCancelled, a PaymentRequested, or nothing. */
    public Flux<DomainEvent> apply(DomainEvent reply) {
        StepReply stepReply = StepReply.of(reply);
        return readAhead()
                .mapNotNull(read -> read.orders().get(reply.orderId()))
                .switchIfEmpty(Mono.defer(() -> orders.lockById(reply.orderId())))
                .switchIfEmpty(Mono.error(() -> new PoisonMessageException(reply.eventType() + " for order "
                        + reply.orderId() + ", which does not exist")))
                .flatMapMany(order -> apply(order, reply, stepReply));
    }

    /**
     * Before a batch of replies is applied ({@link com.example.messaging.inbox.LockAhead}): locks the rows of all
     * their orders in one statement, in ascending order of their ids, and keeps what it read as a resource of the
     * batch's transaction. Each reply of the batch then starts from its order as the replies before it left it, with
     * one statement instead of the two of a reply applied on its own (lock and read, then move).
     */
    public Mono<Void> lockAhead(List<DomainEvent> replies) {
        List<Long> orderIds = replies.stream().map(DomainEvent::orderId).distinct().toList();
        return TransactionSynchronizationManager.forCurrentTransaction()
                .flatMap(transaction -> orders.lockAll(orderIds)
                        .collectMap(Order::id, order -> order, ConcurrentHashMap<Long, Order>::new)
                        .doOnNext(read -> transaction.bindResource(ReadAhead.class, new ReadAhead(read))))
                .then();
    }

    /** The orders the batch this reply belongs to read ahead; empty for a reply applied on its own. */
    private static Mono<ReadAhead> readAhead() {
        return TransactionSynchronizationManager.forCurrentTransaction()
                .mapNotNull(transaction -> (ReadAhead) transaction.getResource(ReadAhead.class))
                .onErrorResume(NoTransactionException.class, e -> Mono.empty());
    }

    /** The orders of a batch, locked, as the replies applied so far left them. */
    private record ReadAhead(Map<Long, Order> orders) {
    }

    private Flux<DomainEvent> apply(Order order, DomainEvent reply, StepReply stepReply) {
        Pricing pricing = Pricing.of(reply);
        State before = State.of(order, pricing);
        Transition transition = OrderStateMachine.apply(before, stepReply);
        if (!transition.applied()) {
            log.warn("Order {}: {} {} ignored: {}", order.id(), reply.eventType(), reply.eventId(),
                    transition.ignoredBecause());
            Counter.builder("orders.replies.ignored").tag("event_type", reply.eventType()).register(meters)
                    .increment();
            return orders.recordHistory(order.id(), reply.eventId(), reply.eventType(), before,
                    transition.ignoredBecause()).thenMany(Flux.empty());
        }
        State after = transition.next();
        // One INFO line per order, when it ends; the steps in between are in the order's history table.
        if (after.status() != before.status()) {
            log.info("Order {}: {} -> {} {}", order.id(), reply.eventType(), after.status(), after.steps());
        } else {
            log.debug("Order {}: {} -> {} {}", order.id(), reply.eventType(), after.status(), after.steps());
        }
        Mono<Void> write = orders.moveTo(order, after, pricing, reply.eventId(), reply.eventType())
                .flatMap(now -> readAhead().doOnNext(read -> read.orders().put(now.id(), now)))
                .then(Mono.fromRunnable(() -> countIfFinal(order, before, after)));
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

    private void countIfFinal(Order order, State before, State after) {
        if (before.status() == OrderStatus.CREATED && after.status() != OrderStatus.CREATED) {
            finalOrders.reached(order, after.status());
        }
    }
}
