package com.example.messaging.inbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
    private final Duration batchLockTimeout;

    /**
     * @param batchLockTimeout how long a batch's statements wait for a row lock before the batch gives up (and its
     *                         events are applied one at a time)
     */
    InboxTransaction(ProcessedEvents processed, TransactionalOperator transactional, OutboxWriter outbox,
            CrashPoints crashPoints, Duration batchLockTimeout) {
        this.processed = processed;
        this.transactional = transactional;
        this.outbox = outbox;
        this.crashPoints = crashPoints;
        this.batchLockTimeout = batchLockTimeout;
    }

    /** Emits true when the effect was applied and committed, false when the event had been processed before. */
    Mono<Boolean> apply(InboundEvent event, EventHandler<?> handler) {
        Mono<Boolean> work = processed.claim(event)
                .flatMap(claimed -> claimed ? applyEffect(event, handler).then(beforeCommit()).thenReturn(true)
                        : Mono.just(false));
        return transactional.transactional(work);
    }

    /**
     * Applies a batch in one transaction: one statement claims every id, then the new events' effects and replies
     * follow in delivery order. Emits, per event in order, whether this transaction applied it (false for an event
     * processed before, or a second copy of one earlier in the same batch). Any failure rolls back the whole batch.
     *
     * <p>A batch waits at most {@code batchLockTimeout} for any row lock. It locks the rows of one event after the other,
     * so two batches can take the same rows in different orders and wait for each other; PostgreSQL would break that
     * circle only after {@code deadlock_timeout} (1s by default, superuser-only), and meanwhile both hold every row
     * they have taken, which single events then queue behind. Giving up early (the events then go one at a time, each
     * locking its rows in a fixed order) keeps every lock a batch holds short-lived.
     */
    Mono<List<Boolean>> applyAll(List<InboundEvent> events, List<EventHandler<?>> handlers) {
        Mono<List<Boolean>> work = processed.waitForLocksAtMost(batchLockTimeout)
                .then(processed.claimAll(events)).flatMap(claimed -> {
            Set<UUID> unapplied = new HashSet<>(claimed);
            List<Boolean> applied = new ArrayList<>(events.size());
            return Flux.range(0, events.size())
                    .concatMap(i -> {
                        InboundEvent event = events.get(i);
                        boolean isNew = unapplied.remove(event.id());
                        applied.add(isNew);
                        return isNew ? applyEffect(event, handlers.get(i)) : Mono.empty();
                    })
                    .then(Mono.defer(() -> applied.contains(true) ? beforeCommit() : Mono.empty()))
                    .then(Mono.fromSupplier(() -> applied));
        });
        return transactional.transactional(work);
    }

    private Mono<Void> applyEffect(InboundEvent event, EventHandler<?> handler) {
        return Flux.from(dispatch(handler, event.event()))
                .concatMap(reply -> outbox.append(OutboundEvent.of(reply).causedBy(event.traceparent())))
                .then();
    }

    private Mono<Void> beforeCommit() {
        return Mono.fromRunnable(() -> crashPoints.reach(ConsumerCrashPoints.BEFORE_COMMIT));
    }

    private static <E extends DomainEvent> Publisher<? extends DomainEvent> dispatch(EventHandler<E> handler,
            DomainEvent event) {
        return handler.handle(handler.eventType().cast(event));
    }
}
