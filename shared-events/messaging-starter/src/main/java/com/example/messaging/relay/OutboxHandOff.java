package com.example.messaging.relay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;

import com.example.service.failure.Failures;
import com.example.service.faults.CrashPoints;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Publishes outbox rows right after the commit that wrote them, from the process that wrote them, instead of waking
 * the sweep ({@link OutboxRelay}) to claim them: a writer that asks for it writes its rows with a lease (their
 * {@code next_attempt_at} {@link #lease()} ahead, no notification) and offers their ids once its transaction has
 * committed. The hand-off reads them by id, publishes them and waits for the confirms, then marks them sent: two
 * round trips and no transaction, where a cycle of the sweep takes four in one transaction, row locks included. The
 * read comes after the commit and not from the writer's own statement, though that would save a round trip: a writer
 * whose statement waited for the lock an earlier writer of the same aggregate held goes on with the aggregate as that
 * writer left it, but sees the rest of the database as it was when its statement began, without that writer's outbox
 * row; only a statement that begins after the commit is sure to find the earlier row, which must leave first.
 *
 * <p>Nothing depends on the hand-off happening. A row whose writer died before offering it, that this process could
 * not publish, or that waited here longer than its lease is published by the sweep once the lease runs out (by any
 * instance), or at once where the hand-off gave it back ({@link OutboxStore#release}): a row the broker did not
 * confirm, or one that must wait for an earlier unsent row of its aggregate, which the sweep sends first. Either way
 * at least once, as before; both may publish a row whose lease ran out, and the consumers' inboxes drop the second.
 * The crash points of the relay are reached here too. Offers queue while a batch is out, so concurrent commits go out
 * together; at most {@value #MAX_QUEUED} wait, the rest wait for their lease. Rows offered once the relay has
 * stopped (requests still being answered while the service shuts down) are given back to the sweep at once, so that
 * another instance publishes them without waiting for the lease.
 */
public final class OutboxHandOff {

    private static final Logger log = LoggerFactory.getLogger(OutboxHandOff.class);
    static final int MAX_QUEUED = 10_000;

    private final OutboxStore store;
    private final OutboxPublisher publisher;
    private final OutboxRelay relay;
    private final CrashPoints crashPoints;
    private final RelayMetrics metrics;
    private final boolean enabled;
    private final Duration lease;
    private final int batchSize;
    private final Duration timeout;
    private final Queue<UUID> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean draining = new AtomicBoolean();

    OutboxHandOff(OutboxStore store, OutboxPublisher publisher, OutboxRelay relay, CrashPoints crashPoints,
            RelayMetrics metrics, RelayProperties properties) {
        this.store = store;
        this.publisher = publisher;
        this.relay = relay;
        this.crashPoints = crashPoints;
        this.metrics = metrics;
        this.enabled = properties.handOff().enabled();
        this.lease = properties.handOff().lease();
        this.batchSize = properties.batchSize();
        this.timeout = properties.cycleTimeout();
    }

    /**
     * What a writer of outbox rows holds: the service's hand-off where its relay runs and hands off
     * ({@code messaging.relay.hand-off.enabled}), otherwise one that leaves the rows to the relay's sweep.
     */
    public static Writer writer(ObjectProvider<OutboxHandOff> handOff) {
        return handOff.stream().findFirst().map(OutboxHandOff::writer).orElse(Writer.NONE);
    }

    /** What a writer of outbox rows holds to hand them to this relay, or to its sweep when the hand-off is off. */
    public Writer writer() {
        return new Writer(enabled ? this : null);
    }

    /** Whether writers should hand their rows over ({@code messaging.relay.hand-off.enabled}). */
    public boolean isOn() {
        return enabled;
    }

    /** How far ahead a handed-off row's {@code next_attempt_at} is written: the sweep leaves it alone until then. */
    public Duration lease() {
        return lease;
    }

    /** Call once the transaction that wrote these rows, with {@link #lease()}, has committed. */
    public void offer(Collection<UUID> ids) {
        for (UUID id : ids) {
            if (queued.incrementAndGet() > MAX_QUEUED) {
                queued.decrementAndGet();
                log.debug("Hand-off queue full; outbox event {} waits for its lease", id);
                continue;
            }
            queue.add(id);
        }
        if (draining.compareAndSet(false, true)) {
            next();
        }
    }

    /** One batch at a time; whatever is offered meanwhile goes with the next one. */
    private void next() {
        List<UUID> batch = take();
        if (batch.isEmpty()) {
            // An offer that came after take() saw draining still set: it is this drain's to take.
            draining.set(false);
            if (!queue.isEmpty() && draining.compareAndSet(false, true)) {
                next();
            }
            return;
        }
        Scheduler scheduler = relay.scheduler();
        // The relay has stopped: the sweep of another instance, or this one's after a restart, takes the rows at once
        // instead of after their lease.
        Mono<Void> work = scheduler == null ? store.release(batch) : handOff(batch, scheduler);
        work.timeout(timeout)
                .onErrorResume(e -> {
                    // The rows keep their lease and the sweep takes them when it runs out.
                    log.debug("Hand-off of {} outbox events failed, left to the relay's sweep: {}", batch.size(),
                            Failures.describe(e));
                    return Mono.empty();
                })
                .doFinally(signal -> next())
                .subscribe();
    }

    private List<UUID> take() {
        List<UUID> batch = new ArrayList<>();
        UUID id;
        while (batch.size() < batchSize && (id = queue.poll()) != null) {
            batch.add(id);
        }
        queued.addAndGet(-batch.size());
        return batch;
    }

    private Mono<Void> handOff(List<UUID> batch, Scheduler scheduler) {
        return store.handedOff(batch).collectList()
                .flatMap(rows -> rows.isEmpty() ? Mono.just(List.<Delivery>of()) : Mono.fromCallable(() -> {
                    crashPoints.reach(RelayCrashPoints.BEFORE_PUBLISH);
                    return rows;
                }).flatMap(claimed -> publisher.publish(claimed, scheduler)))
                .flatMap(deliveries -> {
                    Set<UUID> confirmed = new HashSet<>();
                    boolean laterDue = false;
                    for (Delivery delivery : deliveries) {
                        if (delivery.isConfirmed()) {
                            confirmed.add(delivery.row().id());
                            laterDue |= delivery.row().hasLater();
                        }
                    }
                    if (!confirmed.isEmpty()) {
                        crashPoints.reach(RelayCrashPoints.AFTER_PUBLISH_BEFORE_MARK);
                    }
                    List<UUID> left = batch.stream().filter(id -> !confirmed.contains(id)).toList();
                    boolean wake = laterDue;
                    return store.markSent(List.copyOf(confirmed))
                            .doOnSuccess(marked -> deliveries.stream().filter(Delivery::isConfirmed)
                                    .forEach(metrics::published))
                            .then(left.isEmpty() ? Mono.<Void>empty() : release(left, deliveries))
                            // The next event of an aggregate just sent may be due now; the sweep sends it.
                            .doOnSuccess(ignored -> {
                                if (wake) {
                                    relay.wake();
                                }
                            });
                });
    }

    private Mono<Void> release(List<UUID> left, List<Delivery> deliveries) {
        deliveries.stream().filter(d -> !d.isConfirmed()).findFirst().ifPresent(first -> log.debug(
                "{} handed-off outbox events not confirmed, left to the relay; first: {} ({})",
                deliveries.stream().filter(d -> !d.isConfirmed()).count(), first.failure(), first.row().id()));
        return store.release(left);
    }

    /**
     * The writer's side of the hand-off: write the rows with {@link #lease()}, then, once the transaction that wrote
     * them has committed, {@link #offer} their ids. When the service does not hand off, the lease is null (the rows
     * are written notified, for the sweep) and offering does nothing, so a writer needs no case of its own.
     */
    public static final class Writer {

        /** Leaves every row to the relay's sweep. */
        public static final Writer NONE = new Writer(null);

        private final OutboxHandOff handOff;

        private Writer(OutboxHandOff handOff) {
            this.handOff = handOff;
        }

        /** The lease to write the rows with, for {@code OutboxWriter}; null: written notified. */
        public Duration lease() {
            return handOff == null ? null : handOff.lease();
        }

        /** Call once the transaction that wrote these rows, with {@link #lease()}, has committed. */
        public void offer(Collection<UUID> ids) {
            if (handOff != null && !ids.isEmpty()) {
                handOff.offer(ids);
            }
        }
    }
}
