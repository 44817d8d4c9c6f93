package com.example.payment;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
 * Charges, reconciles and refunds payments for as long as the application runs: one round at a time, started by the
 * poll interval, by a wake-up ({@link WorkerWakeUps}), or by the previous round having claimed a full batch. A round
 * claims the payments whose work is due in one short statement and then works on them concurrently
 * ({@link PaymentWork}), outside any transaction while the provider is called.
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
    private Running running;
    private int failuresInARow;

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
                    // Wake-ups that arrive during a round collapse into one round after it.
                    .onBackpressureLatest();
            Disposable rounds = wakeUpCalls
                    .concatMap(wakeUp -> round()
                            // Cancelling abandons the calls in flight; their payments are reconciled after the lease.
                            .timeout(lease)
                            .onErrorResume(this::failed), 1)
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
            log.info("Payment worker started: batches of {}, polling every {}, leases of {}", settings.batchSize(),
                    settings.pollInterval(), lease);
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
        if (failuresInARow > 0) {
            log.info("Payment worker recovered after {} failed rounds", failuresInARow);
            failuresInARow = 0;
        }
        if (claimed == settings.batchSize()) {
            // A full batch: more may be due. Keep going without waiting for the next poll.
            wakeUps.wake();
        }
    }

    private Mono<Integer> failed(Throwable e) {
        failuresInARow++;
        // The first failure and every hundredth: an outage of minutes should not flood the log.
        if (failuresInARow == 1 || failuresInARow % 100 == 0) {
            log.warn("Payment worker round failed ({} in a row), trying again at the next wake-up: {}",
                    failuresInARow, Failures.describe(e));
        } else {
            log.debug("Payment worker round failed ({} in a row): {}", failuresInARow, Failures.describe(e));
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
                log.warn("Payment worker round still running after {}; abandoning it (its payments are taken up "
                        + "again when their leases run out)", settings.drainTimeout());
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
