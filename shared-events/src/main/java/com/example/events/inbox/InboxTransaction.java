package com.example.events.inbox;

import org.reactivestreams.Publisher;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.DomainEvent;
import com.example.events.faults.CrashPoints;
import com.example.events.outbox.OutboxWriter;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One inbox transaction: claim the event id in processed_events, and only if the claim is new apply
 * the handler's effect and append its replies to the outbox. A duplicate costs one insert that
 * conflicts. The claim is {@code ON CONFLICT DO NOTHING} and never a caught unique violation, which
 * in PostgreSQL would abort the transaction (DESIGN.md rule 2); two deliveries of one event racing in
 * two transactions serialize on the primary key: the second waits for the first and then conflicts.
 */
final class InboxTransaction {

    private final DatabaseClient db;
    private final TransactionalOperator transactional;
    private final OutboxWriter outbox;
    private final CrashPoints crashPoints;

    InboxTransaction(DatabaseClient db, TransactionalOperator transactional, OutboxWriter outbox,
            CrashPoints crashPoints) {
        this.db = db;
        this.transactional = transactional;
        this.outbox = outbox;
        this.crashPoints = crashPoints;
    }

    /** Emits true when the effect was applied and committed, false when the event had been processed before. */
    Mono<Boolean> apply(InboundEvent event, EventHandler<?> handler) {
        Mono<Boolean> work = claim(event)
                .flatMap(claimed -> claimed ? applyEffect(event, handler).thenReturn(true) : Mono.just(false));
        return transactional.transactional(work);
    }

    private Mono<Boolean> claim(InboundEvent event) {
        return db.sql("insert into processed_events (event_id, event_type) values (:eventId, :eventType) "
                        + "on conflict (event_id) do nothing")
                .bind("eventId", event.id())
                .bind("eventType", event.type())
                .fetch()
                .rowsUpdated()
                .map(inserted -> inserted == 1);
    }

    private Mono<Void> applyEffect(InboundEvent event, EventHandler<?> handler) {
        return Flux.from(dispatch(handler, event.event()))
                .concatMap(reply -> outbox.append(reply, event.traceparent()))
                .then(Mono.fromRunnable(() -> crashPoints.reach(CrashPoints.CONSUMER_BEFORE_COMMIT)));
    }

    private static <E extends DomainEvent> Publisher<? extends DomainEvent> dispatch(EventHandler<E> handler,
            DomainEvent event) {
        return handler.handle(handler.eventType().cast(event));
    }
}
