package com.example.messaging.inbox;

import java.util.function.Function;

import org.reactivestreams.Publisher;

import com.example.events.DomainEvent;

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
 * database answers (a lock held elsewhere, a statement too slow) is retried a few times, then dead-lettered. What the
 * effects of a batch's events lock can be locked ahead, once per batch, by the service's {@link LockAhead}.
 *
 * @param <E> the event record, or the sealed family, handled
 */
public interface EventHandler<E extends DomainEvent> {

    /** An event record, or a sealed family of them; no two handlers of one service may share a record. */
    Class<E> eventType();

    /** Applies the event's effect and emits the events that answer it (none, one or several). */
    Publisher<? extends DomainEvent> handle(E event);

    static <E extends DomainEvent> EventHandler<E> of(Class<E> eventType,
            Function<? super E, ? extends Publisher<? extends DomainEvent>> handle) {
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
            public String toString() {
                return "EventHandler<" + eventType.getSimpleName() + ">";
            }
        };
    }
}
