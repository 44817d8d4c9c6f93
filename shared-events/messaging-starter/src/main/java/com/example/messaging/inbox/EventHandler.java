package com.example.messaging.inbox;

import java.util.List;
import java.util.function.Function;

import org.reactivestreams.Publisher;

import com.example.events.DomainEvent;

import reactor.core.publisher.Mono;

/**
 * What a service does with one type of event, or with every event of a producer's sealed family
 * ({@code EventHandler.of(InventoryEvent.class, ...)}). Declaring handlers is all a consumer service does:
 * the inbox subscribes its queue to the exchanges and event types they handle. The inbox calls a handler
 * inside its transaction, only the
 * first time an event id arrives; the events it emits (the replies) are appended to the outbox in
 * that same transaction, so effect, replies and the processed_events row commit together or not at all.
 *
 * <p>A payload that can never be applied (business-invalid) signals {@link PoisonMessageException}.
 * Any other error rolls the transaction back and is retried by the inbox while the database is
 * unavailable, so a handler needs no retry logic of its own. A transaction that keeps timing out while the
 * database answers (a lock held elsewhere, a statement too slow) is retried a few times, then dead-lettered.
 *
 * @param <E> the event record, or the sealed family, handled
 */
public interface EventHandler<E extends DomainEvent> {

    /** An event record, or a sealed family of them; no two handlers of one service may share a record. */
    Class<E> eventType();

    /** Applies the event's effect and emits the events that answer it (none, one or several). */
    Publisher<? extends DomainEvent> handle(E event);

    /**
     * Called once per batch, in its transaction, before any of its events is applied, with the batch's new events
     * of this handler (in ascending order of their orders): locks, in one fixed order, the rows their effects will
     * lock, so that two batches in flight at once queue for those rows instead of taking them in opposite orders and
     * waiting for each other until the batch lock timeout. Nothing by default: the inbox applies a batch's events in
     * ascending order of their orders, which is enough for a handler that locks only its order's own rows.
     */
    default Mono<Void> lockAhead(List<E> events) {
        return Mono.empty();
    }

    static <E extends DomainEvent> EventHandler<E> of(Class<E> eventType,
            Function<? super E, ? extends Publisher<? extends DomainEvent>> handle) {
        return of(eventType, handle, events -> Mono.empty());
    }

    /** A handler that locks ahead, in a batch, what the effects of its events will lock ({@link #lockAhead}). */
    static <E extends DomainEvent> EventHandler<E> of(Class<E> eventType,
            Function<? super E, ? extends Publisher<? extends DomainEvent>> handle,
            Function<List<E>, Mono<Void>> lockAhead) {
        return new EventHandler<>() {

            @Override
            public Class<E> eventType() {
                return eventType;
            }

            @Override
            public Publisher<? extends DomainEvent> handle(E event) {
                return handle.apply(event);
            }

            @Override
            public Mono<Void> lockAhead(List<E> events) {
                return lockAhead.apply(events);
            }

            @Override
            public String toString() {
                return "EventHandler<" + eventType.getSimpleName() + ">";
            }
        };
    }
}
