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
import com.example.messaging.relay.OutboxHandOff;
import com.example.service.faults.CrashPoints;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One inbox transaction: claim the event id in processed_events, and only if the claim is new apply
 * the handler's effect and append its replies to the outbox. A duplicate costs one insert that conflicts.
 *
 * <p>Where the service's relay takes hand-offs ({@link OutboxHandOff}), the replies are written for it and offered to
 * it once the transaction has committed, so they leave without waiting for the relay's sweep; a reply the process
 * could not hand off (it stopped between the commit and the offer) leaves through the sweep after its lease.
 */
final class InboxTransaction {

    private final ProcessedEvents processed;
    private final TransactionalOperator transactional;
    private final OutboxWriter outbox;
    private final CrashPoints crashPoints;
    private final Optional<Duration> batchLockTimeout;
    private final LockAhead lockAhead;
    private final OutboxHandOff.Writer handOff;

    /**
     * @param batchLockTimeout how long a batch's statements wait for a row lock before the batch gives up (and its
     *                         events are applied one at a time); when empty, as long as any statement of the service
     * @param lockAhead        what the service locks before a batch's events are applied
     * @param handOff          the relay that publishes the replies after the commit, or its sweep
     */
    InboxTransaction(ProcessedEvents processed, TransactionalOperator transactional, OutboxWriter outbox,
            CrashPoints crashPoints, Optional<Duration> batchLockTimeout, LockAhead lockAhead,
            OutboxHandOff.Writer handOff) {
        this.processed = processed;
        this.transactional = transactional;
        this.outbox = outbox;
        this.crashPoints = crashPoints;
        this.batchLockTimeout = batchLockTimeout;
        this.lockAhead = lockAhead;
        this.handOff = handOff;
    }

    /** Emits true when the effect was applied and committed, false when the event had been processed before. */
    Mono<Boolean> apply(InboundEvent event, EventHandler<?> handler) {
        Mono<Committed<Boolean>> work = processed.claim(event)
                .flatMap(claimed -> claimed
                        ? replies(event, handler).collectList()
                                .flatMap(replies -> append(replies).then(beforeCommit())
                                        .thenReturn(new Committed<>(true, replies)))
                        : Mono.just(new Committed<>(false, List.of())));
        return committed(work);
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
        Mono<Committed<List<Boolean>>> work = lockTimeout.then(processed.claimAll(events)).flatMap(claimed -> {
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
                    .flatMap(replies -> append(replies)
                            .then(Mono.defer(() -> List.of(applied).contains(true) ? beforeCommit() : Mono.empty()))
                            .then(Mono.fromSupplier(() -> new Committed<>(List.of(applied), replies))));
        });
        return committed(work);
    }

    /** What a transaction answers, and the replies it wrote. */
    private record Committed<T>(T result, List<OutboundEvent> replies) {
    }

    /** The replies in one statement, for the hand-off when there is one. */
    private Mono<Void> append(List<OutboundEvent> replies) {
        return outbox.appendAll(replies, handOff.lease());
    }

    /**
     * Runs {@code work} in a transaction and, once it has committed, hands the replies it wrote to the relay. The
     * transactional operator emits a Mono's value only after the commit.
     */
    private <T> Mono<T> committed(Mono<Committed<T>> work) {
        return transactional.transactional(work)
                .doOnNext(done -> handOff.offer(done.replies().stream().map(OutboundEvent::id).toList()))
                .map(Committed::result);
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
