package com.example.messaging.inbox;

import java.util.List;
import java.util.function.Function;

import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;

import com.example.events.DomainEvent;

import reactor.core.publisher.Mono;

/**
 * What a consumer service locks before a batch's events are applied, declared once per service as a bean (at most
 * one). The inbox calls it once per batch, in the batch's transaction, with every new event of the batch, whatever its
 * handler, in the order they are about to be applied: ascending order of the order they are about, delivery order
 * within one order. Duplicates (events processed before, a second copy in the same batch) are not in the list; it is
 * never empty.
 *
 * <p>It locks, in one fixed order, the rows the events' effects will lock, so that two batches in flight at once (two
 * consumers of a queue, two instances of the service) queue for those rows instead of taking them in opposite orders
 * and waiting for each other until PostgreSQL's deadlock detection ends one. It may read what it locks and keep it
 * for the effects, as a resource of the transaction ({@link #keep}, found again with {@link #kept}): the rows stay
 * locked until the batch commits, so nobody else changes them meanwhile, and the resource ends with the transaction.
 *
 * <p>A service without one locks nothing ahead: the inbox applies a batch's events in ascending order of their orders,
 * which is enough for effects that lock only their order's own rows. An event applied on its own (batches off, or a
 * batch that failed and is applied one event at a time) is not preceded by it: the effect takes its own locks.
 */
@FunctionalInterface
public interface LockAhead {

    /** Locks, and may read, what the effects of {@code events} will lock. */
    Mono<Void> lock(List<DomainEvent> events);

    /** Locks nothing ahead. */
    static LockAhead nothing() {
        return events -> Mono.empty();
    }

    /**
     * Keeps {@code resource}, what a lock-ahead locked or read, in the current transaction under {@code key}, for the
     * batch's effects to find with {@link #kept}; it ends with the transaction. Fails outside a transaction.
     */
    static <T> Mono<Void> keep(Class<T> key, T resource) {
        return TransactionSynchronizationManager.forCurrentTransaction()
                .doOnNext(transaction -> transaction.bindResource(key, resource))
                .then();
    }

    /**
     * Keeps {@code resource} as {@link #keep(Class, Object)} does, and writes it behind: {@code write} runs once, when
     * the transaction is about to commit, after the batch's effects and replies (a
     * {@link TransactionSynchronization#beforeCommit}, on the batch's connection, inside its transaction). Effects that
     * only change the kept resource then cost no statement each, and what they did is written in one; if that write
     * fails, the whole batch rolls back and the inbox applies its events one at a time. Fails outside a transaction.
     */
    static <T> Mono<Void> keep(Class<T> key, T resource, Function<? super T, Mono<Void>> write) {
        return TransactionSynchronizationManager.forCurrentTransaction()
                .doOnNext(transaction -> {
                    transaction.bindResource(key, resource);
                    transaction.registerSynchronization(new TransactionSynchronization() {
                        @Override
                        public Mono<Void> beforeCommit(boolean readOnly) {
                            return write.apply(resource);
                        }
                    });
                })
                .then();
    }

    /**
     * What the lock-ahead of the current transaction's batch kept under {@code key}; empty for an event applied on
     * its own (no lock-ahead ran in its transaction) and outside any transaction.
     */
    static <T> Mono<T> kept(Class<T> key) {
        return TransactionSynchronizationManager.forCurrentTransaction()
                .mapNotNull(transaction -> key.cast(transaction.getResource(key)))
                .onErrorResume(NoTransactionException.class, e -> Mono.empty());
    }
}
