package com.example.payment;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import com.example.payment.persistence.PaymentRepository;
import com.example.payment.persistence.PaymentRepository.Claimed;
import com.example.service.failure.Failures;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * Charges, reconciles and refunds payments for as long as the application runs, in rounds started by the poll
 * interval, by a wake-up ({@link WorkerWakeUps}), or by a round having claimed a full batch. A round claims the
 * payments whose work is due in one short statement and then works on them concurrently ({@link PaymentWork}),
 * outside any transaction while the provider is called. Up to {@link PaymentProperties.Worker#concurrentRounds()}
 * rounds run at the same time, so that a payment asked for while the provider is still answering the round in flight
 * is claimed at once by another, rather than waiting for the slowest call of that round; wake-ups that arrive while
 * every round is busy collapse into one round after the first of them ends.
 *
 * <p>Any number of instances may run it. The claim skips rows locked by another instance (or by an event being
 * applied) and leases each claimed payment until its work must be over ({@link PaymentProperties#lease()}): another
 * instance takes a payment up only once its lease ran out, which is also how a payment whose instance crashed
 * mid-call is reconciled. A round that fails (the database is away) is logged and the next wake-up tries again;
 * nothing here needs a restart to recover.
 */
@Component
class PaymentWorker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PaymentWorker.class);

    private final PaymentRepository payments;
    private final PaymentWork work;
    private final PaymentMetrics metrics;
    private final WorkerWakeUps wakeUps;
    private final PaymentProperties.Worker settings;
    private final Duration lease;
    private final Object lifecycle = new Object();
    private final AtomicInteger failuresInARow = new AtomicInteger();
    private Running running;

    PaymentWorker(PaymentRepository payments, PaymentWork work, PaymentMetrics metrics, WorkerWakeUps wakeUps,
            PaymentProperties properties) {
        this.payments = payments;
        this.work = work;
        this.metrics = metrics;
        this.wakeUps = wakeUps;
        this.settings = properties.worker();
        this.lease = properties.lease();
    }

    @Override
    public void start() {
        synchronized (lifecycle) {
            if (running != null) {
                return;
            }
            Scheduler scheduler = Schedulers.newSingle("payment-worker");
            Sinks.Empty<Void> stopping = Sinks.empty();
            CountDownLatch drained = new CountDownLatch(1);
            Flux<Object> wakeUpCalls = Flux.<Object>merge(
                            Flux.interval(Duration.ZERO, settings.pollInterval(), scheduler).onBackpressureDrop(),
                            wakeUps.asFlux())
                    .takeUntilOther(stopping.asMono())
                    // Wake-ups that arrive while every round is busy collapse into one round after the first ends.
                    .onBackpressureLatest();
            Disposable rounds = wakeUpCalls
                    // Concurrent rounds never claim the same payment: a claim skips the rows another one is claiming
                    // and leases those it takes.
                    .flatMap(wakeUp -> round()
                            // Cancelling abandons the calls in flight; their payments are reconciled after the lease.
                            .timeout(lease)
                            .onErrorResume(this::failed), settings.concurrentRounds())
                    // Nothing above should end with an error; if something does, the worker must not just stop.
                    .retryWhen(Retry.fixedDelay(Long.MAX_VALUE, settings.pollInterval())
                            .doBeforeRetry(signal -> log.error("Payment worker wake-ups ended unexpectedly; restarting "
                                    + "them", signal.failure())))
                    .doFinally(signal -> drained.countDown())
                    .subscribe();
            Disposable statistics = Flux.interval(Duration.ZERO, settings.statsInterval(), scheduler)
                    .onBackpressureDrop()
                    .concatMap(tick -> metrics.refresh()
                            .timeout(settings.statsInterval())
                            .onErrorResume(e -> {
                                log.debug("Payment statistics not refreshed: {}", Failures.describe(e));
                                return Mono.empty();
                            }), 1)
                    .subscribe();
            running = new Running(scheduler, stopping, rounds, statistics, drained);
            log.info("Payment worker started: {} rounds at a time of up to {} payments each, polling every {}, "
                    + "leases of {}", settings.concurrentRounds(), settings.batchSize(), settings.pollInterval(),
                    lease);
        }
    }

    /** Claims the payments whose work is due and does it; emits how many it claimed. */
    private Mono<Integer> round() {
        return payments.claimDue(settings.batchSize(), lease).collectList()
                .flatMap(claimed -> Flux.fromIterable(claimed)
                        .flatMap(this::perform, settings.batchSize())
                        .then(Mono.just(claimed.size())))
                .doOnNext(this::succeeded);
    }

    /** One payment's work; its failure (the database away while recording) is left to the lease, not to the round. */
    private Mono<Void> perform(Claimed claimed) {
        return work.perform(claimed).onErrorResume(e -> {
            log.warn("Work on the payment of order {} ({}) failed; it is taken up again when its lease runs out: {}",
                    claimed.payment().orderId(), claimed.claimedIn(), Failures.describe(e));
            return Mono.empty();
        });
    }

    private void succeeded(int claimed) {
        int failedBefore = failuresInARow.getAndSet(0);
        if (failedBefore > 0) {
            log.info("Payment worker recovered after {} failed rounds", failedBefore);
        }
        if (claimed == settings.batchSize()) {
            // A full batch: more may be due. Keep going without waiting for the next poll.
            wakeUps.wake();
        }
    }

    private Mono<Integer> failed(Throwable e) {
        int inARow = failuresInARow.incrementAndGet();
        // The first failure and every hundredth: an outage of minutes should not flood the log.
        if (inARow == 1 || inARow % 100 == 0) {
            log.warn("Payment worker round failed ({} in a row), trying again at the next wake-up: {}", inARow,
                    Failures.describe(e));
        } else {
            log.debug("Payment worker round failed ({} in a row): {}", inARow, Failures.describe(e));
        }
        return Mono.empty();
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
        current.statistics().dispose();
        try {
            if (!current.drained().await(settings.drainTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Payment worker rounds still running after {}; abandoning them (their payments are taken "
                        + "up again when their leases run out)", settings.drainTimeout());
                current.rounds().dispose();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            current.rounds().dispose();
        } finally {
            current.scheduler().dispose();
            log.info("Payment worker stopped");
        }
    }

    @Override
    public boolean isRunning() {
        synchronized (lifecycle) {
            return running != null;
        }
    }

    private record Running(Scheduler scheduler, Sinks.Empty<Void> stopping, Disposable rounds,
            Disposable statistics, CountDownLatch drained) {
    }
}
