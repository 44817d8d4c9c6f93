package com.example.messaging.relay;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

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
    private final int maxAttempts;
    /** Whether the previous cycle had deliveries to retry: only the first of a run of such cycles warns. */
    private boolean failing;
    /**
     * Cycles in a row in which the broker took nothing and was unreachable, blocked or silent: the outage's
     * length, which sets the backoff of the rows it kept waiting (their own refusal counts stay as they were).
     */
    private int outageCycles;

    RelayCycle(OutboxStore store, OutboxPublisher publisher, TransactionalOperator transactions,
            CrashPoints crashPoints, Backoff backoff, RelayMetrics metrics, RelayProperties properties) {
        this.store = store;
        this.publisher = publisher;
        this.transactions = transactions;
        this.crashPoints = crashPoints;
        this.backoff = backoff;
        this.metrics = metrics;
        this.batchSize = properties.batchSize();
        this.maxAttempts = properties.maxAttempts();
    }

    /**
     * @return whether more rows may be due right now: the cycle claimed some and reached the broker.
     *         While the broker is unreachable the relay goes at the pace of its poll interval instead
     *         of sweeping the whole backlog into backoff.
     */
    Mono<Boolean> runOnce(Scheduler scheduler) {
        Mono<Boolean> batch = store.claim(batchSize)
                .collectList()
                .flatMap(rows -> rows.isEmpty() ? Mono.just(false) : relay(rows, scheduler));
        return publisher.declareConfiguredExchanges(scheduler)
                .onErrorResume(e -> {
                    log.debug("Configured exchanges not declared yet: {}", e.toString());
                    return Mono.empty();
                })
                .then(transactions.transactional(batch));
    }

    private Mono<Boolean> relay(List<OutboxRow> rows, Scheduler scheduler) {
        return Mono.fromRunnable(() -> crashPoints.reach(RelayCrashPoints.BEFORE_PUBLISH))
                .then(publisher.publish(rows, scheduler))
                .flatMap(deliveries -> {
                    if (deliveries.stream().anyMatch(Delivery::isConfirmed)) {
                        crashPoints.reach(RelayCrashPoints.AFTER_PUBLISH_BEFORE_MARK);
                    }
                    boolean brokerReached = deliveries.stream().anyMatch(
                            d -> d.isConfirmed() || d.failure().kind() != DeliveryFailure.Kind.BROKER_UNAVAILABLE);
                    return record(deliveries).thenReturn(brokerReached);
                });
    }

    private Mono<Void> record(List<Delivery> deliveries) {
        boolean outage = deliveries.stream().noneMatch(Delivery::isConfirmed)
                && deliveries.stream().anyMatch(d -> !d.failure().kind().countsTowardParking());
        outageCycles = outage ? outageCycles + 1 : 0;
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
            boolean park = refused && refusals >= maxAttempts;
            (park ? parked : retried).add(delivery);
            failures.add(new OutboxStore.FailedAttempt(delivery.row().id(),
                    backoff.delayAfter(refused ? refusals : Math.max(1, outageCycles)),
                    truncate(delivery.failure().toString()), refused, park));
        }
        return store.markSent(confirmed)
                .then(store.recordFailures(failures))
                // Counted once the outcome is about to commit; a rollback after this point only costs a duplicate.
                .doOnSuccess(ignored -> report(deliveries, retried, parked))
                .then();
    }

    private void report(List<Delivery> deliveries, List<Delivery> retried, List<Delivery> parked) {
        deliveries.stream().filter(Delivery::isConfirmed).forEach(metrics::published);
        metrics.retried(retried.size());
        metrics.parked(parked.size());
        for (Delivery delivery : parked) {
            OutboxRow row = delivery.row();
            log.error("Outbox event {} ({} of {} {}) PARKED after {} refused deliveries, last: {}. "
                    + "Fix the cause, then POST /admin/outbox/parked/{}/requeue", row.id(), row.eventType(),
                    row.aggregateType(), row.aggregateId(), row.attempts() + 1, delivery.failure(), row.id());
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

    private static String truncate(String error) {
        return error.length() <= MAX_ERROR_LENGTH ? error : error.substring(0, MAX_ERROR_LENGTH);
    }
}
