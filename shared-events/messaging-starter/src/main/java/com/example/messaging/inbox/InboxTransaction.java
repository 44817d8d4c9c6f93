package com.example.messaging.inbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.reactivestreams.Publisher;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.DomainEvent;
import com.example.messaging.outbox.OutboundEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.service.faults.CrashPoints;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One inbox transaction: claim the event id in processed_events, and only if the claim is new apply
 * the handler's effect and append its replies to the outbox. A duplicate costs one insert that conflicts.
 */
final class InboxTransaction {

    private final ProcessedEvents processed;
    private final TransactionalOperator transactional;
    private final OutboxWriter outbox;
    private final CrashPoints crashPoints;
    private final Optional<Duration> batchLockTimeout;
    private final LockAhead lockAhead;

    /**
     * @param batchLockTimeout how long a batch's statements wait for a row lock before the batch gives up (and its
     *                         events are applied one at a time); when empty, as long as any statement of the service
     * @param lockAhead        what the service locks before a batch's events are applied
     */
    InboxTransaction(ProcessedEvents processed, TransactionalOperator transactional, OutboxWriter outbox,
            CrashPoints crashPoints, Optional<Duration> batchLockTimeout, LockAhead lockAhead) {
        this.processed = processed;
        this.transactional = transactional;
        this.outbox = outbox;
        this.crashPoints = crashPoints;
        this.batchLockTimeout = batchLockTimeout;
        this.lockAhead = lockAhead;
    }

    /** Emits true when the effect was applied and committed, false when the event had been processed before. */
    Mono<Boolean> apply(InboundEvent event, EventHandler<?> handler) {
        Mono<Boolean> work = processed.claim(event)
                .flatMap(claimed -> claimed ? applyEffect(event, handler).then(beforeCommit()).thenReturn(true)
                        : Mono.just(false));
        return transactional.transactional(work);
    }

    /**
     * Applies a batch in one transaction: one statement claims every id, then the service locks ahead what the new
     * events will lock ({@link LockAhead}), then the new events' effects and replies follow, in order of
     * the order they are about (the events of one order in delivery order: a stable sort), and their replies go to the
     * outbox in one statement, in that order. Emits, per event in
     * delivery order, whether this transaction applied it (false for an event processed before, or a second copy of
     * one earlier in the same batch). Any failure rolls back the whole batch.
     *
     * <p>Why that order: two batches in flight at once (two consumers of a queue, or the queues of several
     * producers whose events are about the same orders, as order-service's replies are) lock rows of the same
     * orders. Taken event after event in delivery order, they can take them in opposite orders and wait for each
     * other; taken in ascending order of the order, and with what the service locks ahead taken first and in its
     * own fixed order, a batch waits for another only until that one commits.
     *
     * <p>So a batch that waits for a row lock queues behind a batch that is working, and it waits as long as any
     * statement of the service would. A circle can remain only where an effect locks rows the service did not lock
     * ahead; PostgreSQL's deadlock detection tells it from a queue and ends it after {@code deadlock_timeout} (1 s by
     * default), and the batch's events then go one at a time, each locking its rows in a fixed order. A
     * {@code batchLockTimeout} gives up sooner, at the price of giving up behind every batch that is merely slow.
     */
    Mono<List<Boolean>> applyAll(List<InboundEvent> events, List<EventHandler<?>> handlers) {
        List<Integer> sequence = byOrder(events);
        Mono<Void> lockTimeout = batchLockTimeout.map(processed::waitForLocksAtMost).orElse(Mono.empty());
        Mono<List<Boolean>> work = lockTimeout.then(processed.claimAll(events)).flatMap(claimed -> {
            Set<UUID> unapplied = new HashSet<>(claimed);
            Boolean[] applied = new Boolean[events.size()];
            List<DomainEvent> newEvents = new ArrayList<>();
            for (int i : sequence) {
                InboundEvent event = events.get(i);
                applied[i] = unapplied.remove(event.id());
                if (applied[i]) {
                    newEvents.add(event.event());
                }
            }
            return (newEvents.isEmpty() ? Mono.<Void>empty() : lockAhead.lock(newEvents))
                    .thenMany(Flux.fromIterable(sequence))
                    .concatMap(i -> applied[i] ? replies(events.get(i), handlers.get(i)) : Flux.empty())
                    .collectList()
                    .flatMap(outbox::appendAll)
                    .then(Mono.defer(() -> List.of(applied).contains(true) ? beforeCommit() : Mono.empty()))
                    .then(Mono.fromSupplier(() -> List.of(applied)));
        });
        return transactional.transactional(work);
    }

    /** The indices of the events, in ascending order of the order each is about; delivery order within one order. */
    static List<Integer> byOrder(List<InboundEvent> events) {
        List<Integer> sequence = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            sequence.add(i);
        }
        // List.sort is stable.
        sequence.sort(Comparator.comparing(i -> events.get(i).event().orderId()));
        return sequence;
    }

    private Mono<Void> applyEffect(InboundEvent event, EventHandler<?> handler) {
        return replies(event, handler).concatMap(outbox::append).then();
    }

    /** Applies the event's effect; emits its replies, for the outbox. */
    private static Flux<OutboundEvent> replies(InboundEvent event, EventHandler<?> handler) {
        return Flux.from(dispatch(handler, event.event()))
                .map(reply -> OutboundEvent.of(reply).causedBy(event.traceparent()));
    }

    private Mono<Void> beforeCommit() {
        return Mono.fromRunnable(() -> crashPoints.reach(ConsumerCrashPoints.BEFORE_COMMIT));
    }

    private static <E extends DomainEvent> Publisher<? extends DomainEvent> dispatch(EventHandler<E> handler,
            DomainEvent event) {
        return handler.handle(handler.eventType().cast(event));
    }
}
