package com.example.messaging.relay;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.messaging.support.Backoff;
import com.example.service.faults.CrashPoints;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * One round of the relay, in one database transaction: claim a batch, publish it, await the
 * confirms, then mark each confirmed row sent and record each failure. The row locks taken by the
 * claim are what keeps other relay instances away from the batch; if this process dies anywhere
 * before the commit, PostgreSQL rolls back and the rows are published again (same message ids).
 *
 * <p>Several cycles of one process may run at once ({@code messaging.relay.lanes}), each in its own transaction, just
 * as the cycles of several replicas do; what they learn about the broker (an outage, when it last took a row) is
 * shared, because it is the same broker.
 */
final class RelayCycle {

    private static final Logger log = LoggerFactory.getLogger(RelayCycle.class);
    private static final int MAX_ERROR_LENGTH = 1000;

    private final OutboxStore store;
    private final OutboxPublisher publisher;
    private final TransactionalOperator transactions;
    private final CrashPoints crashPoints;
    private final Backoff backoff;
    private final RelayMetrics metrics;
    private final int batchSize;
    private final Duration parkAfter;
    private final Clock clock;
    /** Whether the previous cycle had deliveries to retry: only the first of a run of such cycles warns. */
    private volatile boolean failing;
    /**
     * Cycles in a row in which the broker took nothing and was unreachable, blocked or silent: the outage's
     * length, which sets the backoff of the rows it kept waiting (their own refusal counts stay as they were).
     */
    private final AtomicInteger outageCycles = new AtomicInteger();
    /**
     * When the broker last took a row from this relay: a row it refuses is parked only if it accepted others since
     * the refusals began. A broker that refuses everything (its definitions lost, the topology not provisioned yet)
     * has a problem no single row can be blamed for; the backlog's age reports that instead.
     */
    private final AtomicReference<Instant> lastAccepted = new AtomicReference<>();

    RelayCycle(OutboxStore store, OutboxPublisher publisher, TransactionalOperator transactions,
            CrashPoints crashPoints, Backoff backoff, RelayMetrics metrics, RelayProperties properties, Clock clock) {
        this.store = store;
        this.publisher = publisher;
        this.transactions = transactions;
        this.crashPoints = crashPoints;
        this.backoff = backoff;
        this.metrics = metrics;
        this.batchSize = properties.batchSize();
        this.parkAfter = properties.parkAfter();
        this.clock = clock;
    }

    /**
     * @return whether the claim found rows, and whether more rows may be due right now: the batch was full, or a row
     *         it sent had a later row of its aggregate waiting behind it; in both cases only if the broker took
     *         something. Otherwise the next cycle waits for a notification or the poll: rows committed meanwhile
     *         notify, so asking again at once would cost a transaction that finds nothing (one per batch, a quarter
     *         of an order's transactions when batches are small). While the broker is unreachable or blocking the
     *         relay goes at the pace of its poll interval instead of sweeping the whole backlog into backoff.
     */
    Mono<Outcome> runOnce(Scheduler scheduler) {
        Mono<Outcome> batch = store.claim(batchSize)
                .collectList()
                .flatMap(rows -> rows.isEmpty() ? Mono.just(new Outcome(false, false))
                        : relay(rows, scheduler).map(moreDue -> new Outcome(true, moreDue)));
        return publisher.declareConfiguredExchanges(scheduler)
                .onErrorResume(e -> {
                    log.debug("Configured exchanges not declared yet: {}", e.toString());
                    return Mono.empty();
                })
                .then(transactions.transactional(batch));
    }

    private Mono<Boolean> relay(List<OutboxRow> rows, Scheduler scheduler) {
        return Mono.fromCallable(() -> {
                    crashPoints.reach(RelayCrashPoints.BEFORE_PUBLISH);
                    return clock.instant();
                })
                .flatMap(publishedAt -> publisher.publish(rows, scheduler).map(d -> new Published(publishedAt, d)))
                .flatMap(published -> {
                    List<Delivery> deliveries = published.deliveries();
                    if (deliveries.stream().anyMatch(Delivery::isConfirmed)) {
                        crashPoints.reach(RelayCrashPoints.AFTER_PUBLISH_BEFORE_MARK);
                    }
                    boolean brokerReached = deliveries.stream().anyMatch(
                            d -> d.isConfirmed() || !d.failure().kind().isUnreachable());
                    boolean moreDue = rows.size() >= batchSize
                            || deliveries.stream().anyMatch(d -> d.isConfirmed() && d.row().hasLater());
                    return record(deliveries, published.at()).thenReturn(brokerReached && moreDue);
                });
    }

    /** @param publishedAt when the batch was published: where a run of refusals that begins in it starts */
    private Mono<Void> record(List<Delivery> deliveries, Instant publishedAt) {
        boolean outage = deliveries.stream().noneMatch(Delivery::isConfirmed)
                && deliveries.stream().anyMatch(d -> !d.failure().kind().countsTowardParking());
        int outageLength = outageCycles.updateAndGet(cycles -> outage ? cycles + 1 : 0);
        deliveries.stream().filter(Delivery::isConfirmed).map(Delivery::confirmedAt)
                .max(Instant::compareTo)
                .ifPresent(at -> lastAccepted.accumulateAndGet(at,
                        (last, next) -> last == null || next.isAfter(last) ? next : last));
        List<UUID> confirmed = new ArrayList<>();
        List<OutboxStore.FailedAttempt> failures = new ArrayList<>();
        List<Delivery> retried = new ArrayList<>();
        List<Delivery> parked = new ArrayList<>();
        for (Delivery delivery : deliveries) {
            if (delivery.isConfirmed()) {
                confirmed.add(delivery.row().id());
                continue;
            }
            boolean refused = delivery.failure().kind().countsTowardParking();
            int refusals = delivery.row().attempts() + (refused ? 1 : 0);
            boolean park = refused && refusedTooLong(delivery.row(), publishedAt);
            (park ? parked : retried).add(delivery);
            failures.add(new OutboxStore.FailedAttempt(delivery.row().id(),
                    backoff.delayAfter(refused ? refusals : Math.max(1, outageLength)),
                    truncate(delivery.failure().toString()), refused, park));
        }
        return store.markSent(confirmed)
                .then(store.recordFailures(failures, publishedAt))
                // Counted once the outcome is about to commit; a rollback after this point only costs a duplicate.
                .doOnSuccess(ignored -> report(deliveries, retried, parked))
                .then();
    }

    /**
     * Parking is on a time budget rather than on a count of attempts: how many attempts fit into a stretch of time
     * depends on the backoff and on how often outages reset the row, while "refused for five minutes while the
     * broker took everything else" means the same thing whatever the pace.
     */
    private boolean refusedTooLong(OutboxRow row, Instant publishedAt) {
        Instant since = row.refusedSince() == null ? publishedAt : row.refusedSince();
        Instant accepted = lastAccepted.get();
        return !since.plus(parkAfter).isAfter(publishedAt) && accepted != null && !accepted.isBefore(since);
    }

    private void report(List<Delivery> deliveries, List<Delivery> retried, List<Delivery> parked) {
        deliveries.stream().filter(Delivery::isConfirmed).forEach(metrics::published);
        metrics.retried(retried.size());
        metrics.parked(parked.size());
        for (Delivery delivery : parked) {
            OutboxRow row = delivery.row();
            log.error("Outbox event {} ({} of {} {}) PARKED: refused {} times since {} while the broker took other "
                    + "events, last: {}. Fix the cause, then POST /admin/outbox/parked/{}/requeue", row.id(), row.eventType(),
                    row.aggregateType(), row.aggregateId(), row.attempts() + 1,
                    row.refusedSince() == null ? "now" : row.refusedSince(), delivery.failure(), row.id());
        }
        if (!retried.isEmpty()) {
            Delivery first = retried.get(0);
            String message = "{} of {} outbox events not delivered, will retry with backoff; first: {} ({})";
            if (failing) {
                log.debug(message, retried.size(), deliveries.size(), first.failure(), first.row().id());
            } else {
                log.warn(message, retried.size(), deliveries.size(), first.failure(), first.row().id());
            }
        } else if (failing) {
            log.info("Outbox events are being delivered again");
        }
        failing = !retried.isEmpty();
    }

    /**
     * What a cycle that committed found.
     *
     * @param claimed whether its claim found rows due
     * @param moreDue whether more rows may be due right now (see {@link #runOnce})
     */
    record Outcome(boolean claimed, boolean moreDue) {
    }

    private record Published(Instant at, List<Delivery> deliveries) {
    }

    private static String truncate(String error) {
        return error.length() <= MAX_ERROR_LENGTH ? error : error.substring(0, MAX_ERROR_LENGTH);
    }
}
