package com.example.messaging.relay;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;

/**
 * The size and age of the backlog, refreshed in the background for the gauges and the health
 * indicator. Between refreshes the age of the oldest row keeps growing with the local clock, so a
 * relay that is stuck (or a database that stopped answering) still shows up as an ageing backlog.
 */
final class OutboxMonitor {

    private final Supplier<Mono<OutboxStore.BacklogStats>> stats;
    private final LongSupplier nanoTime;
    private volatile Snapshot snapshot;

    OutboxMonitor(OutboxStore store) {
        this(store::stats, System::nanoTime);
    }

    OutboxMonitor(Supplier<Mono<OutboxStore.BacklogStats>> stats, LongSupplier nanoTime) {
        this.stats = stats;
        this.nanoTime = nanoTime;
    }

    Mono<Void> refresh() {
        return Mono.defer(() -> {
            long asked = nanoTime.getAsLong();
            return stats.get().doOnNext(stats -> snapshot = new Snapshot(stats, nanoTime.getAsLong(), asked));
        }).then();
    }

    /**
     * Whether figures asked for after {@code sinceNanos} (a {@link System#nanoTime()} reading) found no row waiting
     * that is not parked: every row committed before that moment was visible to them.
     */
    boolean nothingPendingSince(long sinceNanos) {
        Snapshot current = snapshot;
        return current != null && current.askedAtNanos() - sinceNanos > 0 && current.stats().pending() == 0;
    }

    boolean hasFigures() {
        return snapshot != null;
    }

    double pendingRows() {
        Snapshot current = snapshot;
        return current == null ? Double.NaN : current.stats().pending();
    }

    double parkedRows() {
        Snapshot current = snapshot;
        return current == null ? Double.NaN : current.stats().parked();
    }

    /** Zero when nothing is waiting, NaN before the first refresh. */
    double oldestUnsentAgeMillis() {
        Snapshot current = snapshot;
        if (current == null) {
            return Double.NaN;
        }
        return oldestUnsentAge().map(Duration::toMillis).orElse(0L);
    }

    /** Empty when no unparked row is waiting (or nothing is known yet). */
    Optional<Duration> oldestUnsentAge() {
        Snapshot current = snapshot;
        if (current == null || current.stats().oldestAgeMillis() == null) {
            return Optional.empty();
        }
        long sinceRefresh = Math.max(0, nanoTime.getAsLong() - current.takenAtNanos());
        return Optional.of(Duration.ofMillis(current.stats().oldestAgeMillis()).plusNanos(sinceRefresh));
    }

    /** How old the figures are. */
    Optional<Duration> figuresAge() {
        Snapshot current = snapshot;
        return current == null ? Optional.empty()
                : Optional.of(Duration.ofNanos(Math.max(0, nanoTime.getAsLong() - current.takenAtNanos())));
    }

    private record Snapshot(OutboxStore.BacklogStats stats, long takenAtNanos, long askedAtNanos) {
    }
}
