package com.example.messaging.relay;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import com.example.messaging.support.QuietPolls;
import com.example.service.failure.Failures;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * Runs the relay for as long as the application runs: up to {@code lanes} {@link RelayCycle}s at a time, started by
 * a notification, by the poll interval, or by a previous cycle having found work (it keeps going until a cycle
 * claims nothing). A wake-up that arrives while every lane is busy waits for the first to finish; wake-ups that
 * arrive meanwhile collapse into it. So a row committed while a cycle waits for its confirms is claimed by the next
 * lane at once instead of after that cycle. Beside them, on the same small scheduler, the backlog figures are
 * refreshed. While nothing waits and the LISTEN connection is up, polls are skipped ({@link QuietPolls}).
 *
 * <p>Every failure of a cycle (database or broker down) is logged and waited out until the next
 * wake-up; a cycle that hangs (a database connection that stops answering without closing) is
 * abandoned after {@code cycle-timeout}; nothing here needs a restart to recover. Stopping lets the cycles in flight
 * finish, so a published batch is normally marked sent before the connections close.
 */
final class OutboxRelay implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);
    /**
     * One thread per lane publishes and waits for confirms (both block); one for the hand-off ({@link OutboxHandOff})
     * and one spare for the timers.
     */
    private static final int SPARE_THREADS = 2;
    /** How long a nudge waits for a concurrent one to get out of the way. */
    private static final Duration NUDGE_PATIENCE = Duration.ofMillis(100);

    private final RelayCycle cycle;
    private final OutboxStore store;
    private final NotificationListener listener;
    private final OutboxMonitor monitor;
    private final RelayProperties properties;
    private final Object lifecycle = new Object();
    private volatile Running running;
    private final AtomicInteger failuresInARow = new AtomicInteger();
    private volatile QuietPolls quietPolls;

    OutboxRelay(RelayCycle cycle, OutboxStore store, NotificationListener listener, OutboxMonitor monitor,
            RelayProperties properties) {
        this.cycle = cycle;
        this.store = store;
        this.listener = listener;
        this.monitor = monitor;
        this.properties = properties;
    }

    @Override
    public void start() {
        synchronized (lifecycle) {
            if (running != null) {
                return;
            }
            Scheduler scheduler = Schedulers.newBoundedElastic(properties.lanes() + SPARE_THREADS, 1024,
                    "outbox-relay");
            Sinks.Many<Boolean> nudges = Sinks.many().multicast().directBestEffort();
            Sinks.Empty<Void> stopping = Sinks.empty();
            CountDownLatch drained = new CountDownLatch(1);

            QuietPolls quiet = new QuietPolls(listener::isListening, monitor::nothingPendingSince,
                    properties.listener().quietPoll(), System::nanoTime);
            quietPolls = quiet;
            Flux<Object> wakeUps = Flux.<Object>merge(
                            Flux.interval(Duration.ZERO, properties.pollInterval(), scheduler)
                                    .filter(tick -> !quiet.skip())
                                    .onBackpressureDrop(),
                            listener.wakeUps(),
                            nudges.asFlux())
                    .takeUntilOther(stopping.asMono())
                    .onBackpressureLatest();
            Disposable drain = wakeUps
                    .flatMap(wakeUp -> cycle.runOnce(scheduler)
                            // Cancelling rolls the cycle's transaction back; what it published goes out again.
                            .timeout(properties.cycleTimeout())
                            .doOnNext(outcome -> succeeded(outcome, nudges))
                            .onErrorResume(this::failed), properties.lanes(), 1)
                    // Nothing above should end with an error; if something does, the relay must not just stop.
                    .retryWhen(Retry.fixedDelay(Long.MAX_VALUE, properties.pollInterval())
                            .doBeforeRetry(signal -> log.error("Outbox relay wake-ups ended unexpectedly; restarting them",
                                    signal.failure())))
                    .doFinally(signal -> drained.countDown())
                    .subscribe();
            Disposable background = releaseLeases(nudges)
                    .thenMany(Flux.interval(Duration.ZERO, properties.statsInterval(), scheduler))
                    .onBackpressureDrop()
                    .concatMap(tick -> monitor.refresh()
                            .timeout(properties.cycleTimeout())
                            .onErrorResume(e -> {
                                log.debug("Outbox statistics not refreshed: {}", e.toString());
                                return Mono.empty();
                            }), 1)
                    .subscribe();
            running = new Running(scheduler, nudges, stopping, drain, background, drained);
            log.info("Outbox relay started: batches of {}, {} at a time, polling every {}, {}", properties.batchSize(),
                    properties.lanes(), properties.pollInterval(),
                    listener.isOn() ? "listening for notifications" : "notifications off");
        }
    }

    /**
     * Rows handed off ({@link OutboxHandOff}) by a process that stopped before it sent them, this one before a restart
     * most of all, are due at once rather than when their lease ends: a service restarted after a crash sends what it
     * had committed without waiting for the lease. Another instance running meanwhile may be sending some of them right
     * now; those go out twice, which the consumers' inboxes absorb as they absorb every redelivery. Where this fails
     * (the database is not there yet) the rows wait for their lease, as before.
     */
    private Mono<Void> releaseLeases(Sinks.Many<Boolean> nudges) {
        return store.releaseLeases()
                .timeout(properties.cycleTimeout())
                .doOnNext(exchanges -> {
                    if (exchanges > 0) {
                        log.info("Handed-off outbox events left unsent before this start are due now");
                        nudge(nudges);
                    }
                })
                .onErrorResume(e -> {
                    log.debug("Leases of handed-off outbox events not ended at start: {}", e.toString());
                    return Mono.empty();
                })
                .then();
    }

    /** Whether the next poll would be skipped because there is nothing to poll for ({@link QuietPolls}). */
    boolean isQuiet() {
        QuietPolls current = quietPolls;
        return running != null && current != null && current.skip();
    }

    /** Where the relay's blocking work runs while it runs; null when it does not. */
    Scheduler scheduler() {
        Running current = running;
        return current == null ? null : current.scheduler();
    }

    /** Asks for a cycle now, e.g. after an operator requeued parked rows. */
    void wake() {
        Running current = running;
        if (current != null) {
            nudge(current.nudges());
        }
    }

    /**
     * Best effort: a nudge that cannot be delivered is dropped, never turned into an error, which
     * would end the sink and with it the relay's wake-ups; the next poll does the same job.
     */
    private static void nudge(Sinks.Many<Boolean> nudges) {
        long deadline = System.nanoTime() + NUDGE_PATIENCE.toNanos();
        while (nudges.tryEmitNext(Boolean.TRUE) == Sinks.EmitResult.FAIL_NON_SERIALIZED
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    @Override
    public void stop() {
        Running current;
        synchronized (lifecycle) {
            current = running;
            running = null;
        }
        if (current == null) {
            return;
        }
        current.stopping().tryEmitEmpty();
        current.background().dispose();
        try {
            // The cycles in flight end within the confirm timeout unless the database hangs.
            Duration patience = properties.drainTimeout();
            if (!current.drained().await(patience.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Outbox relay cycle still running after {}; abandoning it (its rows roll back and are "
                        + "published again later)", patience);
                current.drain().dispose();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            current.drain().dispose();
        } finally {
            current.scheduler().dispose();
            log.info("Outbox relay stopped");
        }
    }

    @Override
    public boolean isRunning() {
        return running != null;
    }

    private void succeeded(RelayCycle.Outcome outcome, Sinks.Many<Boolean> nudges) {
        quietPolls.cycleEnded(outcome.claimed());
        int failed = failuresInARow.getAndSet(0);
        if (failed > 0) {
            log.info("Outbox relay recovered after {} failed cycles", failed);
        }
        if (outcome.moreDue()) {
            // Keep going without waiting: the next event of each aggregate just sent, or the rest of a backlog.
            nudge(nudges);
        }
    }

    private Mono<RelayCycle.Outcome> failed(Throwable e) {
        quietPolls.cycleEnded(true);
        int inARow = failuresInARow.incrementAndGet();
        // One warning per outage, not one per poll.
        if (inARow == 1) {
            log.warn("Outbox relay cycle failed, retrying on the next wake-up (at most {}): {}",
                    properties.pollInterval(), Failures.describe(e));
        } else {
            log.debug("Outbox relay cycle failed ({} in a row): {}", inARow, Failures.describe(e));
        }
        return Mono.empty();
    }

    private record Running(Scheduler scheduler, Sinks.Many<Boolean> nudges, Sinks.Empty<Void> stopping,
            Disposable drain, Disposable background, CountDownLatch drained) {
    }
}
