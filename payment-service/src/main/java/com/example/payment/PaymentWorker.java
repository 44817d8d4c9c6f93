package com.example.payment;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import com.example.messaging.support.QuietPolls;
import com.example.payment.persistence.PaymentRepository;
import com.example.payment.persistence.PaymentRepository.Claimed;
import com.example.service.failure.Failures;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * Charges, reconciles and refunds payments for as long as the application runs. A claim, started by the poll
 * interval, by a wake-up ({@link WorkerWakeUps}) or by a payment's work ending while more were due, takes the payments
 * whose work is due in one short statement, at most as many as the worker has room for
 * ({@link PaymentProperties.Worker#inFlight()}), and each of them is then worked on by itself ({@link PaymentWork}),
 * outside any transaction while the provider is called. A payment asked for while the provider answers others is
 * claimed at once as long as there is room, and a payment that waits for room is claimed as soon as any payment's
 * work ends, not when a group of calls has ended with its slowest. Claims run one at a time; wake-ups that arrive
 * while one runs collapse into one claim after it. Most payments need no claim at all: while there is room, the
 * transaction that records a payment takes a place ahead ({@link #reserve}) and moves it to PROCESSING itself, and its
 * work starts in that place once the transaction has committed ({@link Payments}). With
 * {@link PaymentProperties.Worker#inRounds()} the worker works in rounds instead, the way before: a round claims and
 * waits for the slowest of its payments, up to {@link PaymentProperties.Worker#concurrentRounds()} rounds at a time.
 *
 * <p>Any number of instances may run it. The claim skips rows locked by another instance (or by an event being
 * applied) and leases each claimed payment until its work must be over ({@link PaymentProperties#lease()}): another
 * instance takes a payment up only once its lease ran out, which is also how a payment whose instance crashed
 * mid-call is reconciled. A claim that fails (the database is away) is logged and the next wake-up tries again;
 * nothing here needs a restart to recover.
 *
 * <p>The poll is for what no wake-up announces here: the payments other instances left behind. While the worker has
 * nothing in hand, its last claim found nothing, and the payment figures ({@link PaymentMetrics}, refreshed every
 * {@code stats-interval}) saw no payment with work left on any instance, it polls only once per
 * {@code stats-interval} ({@link QuietPolls}); figures that show such a payment bring the polls back.
 */
@Component
class PaymentWorker implements SmartLifecycle {

    /** The payments being worked on now. */
    static final String IN_FLIGHT = "payment.worker.in.flight";

    private static final Logger log = LoggerFactory.getLogger(PaymentWorker.class);

    private final PaymentRepository payments;
    private final PaymentWork work;
    private final PaymentMetrics metrics;
    private final WorkerWakeUps wakeUps;
    private final PaymentProperties.Worker settings;
    private final Duration lease;
    private final Slots slots;
    private final Object lifecycle = new Object();
    private final AtomicInteger failuresInARow = new AtomicInteger();
    private final QuietPolls quietPolls;
    private Running running;

    PaymentWorker(PaymentRepository payments, PaymentWork work, PaymentMetrics metrics, WorkerWakeUps wakeUps,
            PaymentProperties properties, MeterRegistry meters) {
        this.payments = payments;
        this.work = work;
        this.metrics = metrics;
        this.wakeUps = wakeUps;
        this.settings = properties.worker();
        this.lease = properties.lease();
        this.slots = new Slots(settings.inFlight());
        // Nothing in hand: a payment asked for here wakes the worker, and the figures show what other instances left.
        this.quietPolls = new QuietPolls(() -> slots.taken() == 0, metrics::noWorkLeftSince, settings.statsInterval(),
                System::nanoTime);
        Gauge.builder(IN_FLIGHT, slots, Slots::taken)
                .description("Payments the worker is working on now: claimed, their work not over")
                .register(meters);
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
                            Flux.interval(Duration.ZERO, settings.pollInterval(), scheduler).onBackpressureDrop()
                                    .filter(tick -> !quietPolls.skip()),
                            wakeUps.asFlux())
                    .takeUntilOther(stopping.asMono())
                    // Wake-ups that arrive while the worker is busy claiming collapse into one claim after it.
                    .onBackpressureLatest();
            Flux<Integer> claims = settings.inRounds()
                    ? wakeUpCalls.flatMap(wakeUp -> round(), settings.concurrentRounds())
                    // One claim at a time, so that each knows how much room the ones before it left.
                    : wakeUpCalls.concatMap(wakeUp -> Mono.defer(this::claim), 1);
            Disposable loop = claims
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
            running = new Running(scheduler, stopping, loop, statistics, drained);
            if (settings.inRounds()) {
                log.info("Payment worker started: {} rounds at a time of up to {} payments each, polling every {}, "
                        + "leases of {}", settings.concurrentRounds(), settings.batchSize(), settings.pollInterval(),
                        lease);
            } else {
                log.info("Payment worker started: up to {} payments at a time, claimed up to {} at once, polling "
                        + "every {}, leases of {}", settings.inFlight(), settings.batchSize(), settings.pollInterval(),
                        lease);
            }
        }
    }

    /**
     * Claims as many due payments as there is room for and starts the work on each; emits how many it claimed. The
     * claim commits before any provider is called: the intent is stored first.
     */
    private Mono<Integer> claim() {
        int room = slots.free();
        if (room == 0) {
            // Whatever woke the worker is claimed when a payment's work ends.
            slots.claimWhenFree();
            return Mono.empty();
        }
        int asked = Math.min(room, settings.batchSize());
        return payments.claimDue(asked, lease).collectList()
                .timeout(lease)
                .map(claimed -> {
                    claimed.forEach(slots::start);
                    quietPolls.cycleEnded(!claimed.isEmpty());
                    recovered();
                    if (claimed.size() == asked) {
                        // As many as were asked for: more may be due.
                        slots.claimWhenFree();
                    }
                    return claimed.size();
                })
                .onErrorResume(this::failed);
    }

    /** Claims the payments whose work is due and does it; emits how many it claimed. */
    private Mono<Integer> round() {
        return payments.claimDue(settings.batchSize(), lease).collectList()
                .doOnNext(claimed -> quietPolls.cycleEnded(!claimed.isEmpty()))
                .flatMap(claimed -> Flux.fromIterable(claimed)
                        .flatMap(payment -> slots.counted(perform(payment)), settings.batchSize())
                        .then(Mono.just(claimed.size())))
                // Cancelling abandons the calls in flight; their payments are reconciled after the lease.
                .timeout(lease)
                .doOnNext(claimed -> {
                    recovered();
                    if (claimed == settings.batchSize()) {
                        // A full batch: more may be due. Keep going without waiting for the next poll.
                        wakeUps.wake();
                    }
                })
                .onErrorResume(this::failed);
    }

    /**
     * Takes a place in the worker's room ahead, for a payment whose work is to start as soon as the transaction that
     * moves it to PROCESSING commits ({@link Payments}), with no claim in between; empty when there is no room, or
     * when the worker works in rounds (they claim what they work on).
     */
    Optional<Place> reserve() {
        return !settings.inRounds() && slots.tryTake() ? Optional.of(new Place()) : Optional.empty();
    }

    /**
     * A place taken ahead ({@link #reserve}): either the work of the payment it was taken for starts in it, or it is
     * given back; once, whichever comes first.
     */
    final class Place {

        private final long takenAt = System.nanoTime();
        private final AtomicBoolean used = new AtomicBoolean();

        /**
         * Starts the work of a payment moved to PROCESSING and leased for {@link PaymentProperties#lease()} after this
         * place was taken: the work must be over by the end of that lease, so it gets what is left of it. A payment
         * whose lease ran out before it could start is left to the claim that takes up expired leases.
         */
        void start(Claimed claimed) {
            if (!used.compareAndSet(false, true)) {
                return;
            }
            Duration left = lease.minusNanos(System.nanoTime() - takenAt);
            if (left.isNegative() || left.isZero()) {
                log.warn("The payment of order {} was leased {} ago, longer than its lease: left to the claim of "
                        + "expired leases", claimed.payment().orderId(), lease.minus(left));
                slots.released();
                return;
            }
            slots.run(claimed, left);
        }

        /** Gives the place back: the payment was not moved (a cancel came first, or the transaction rolled back). */
        void giveBack() {
            if (used.compareAndSet(false, true)) {
                slots.released();
            }
        }
    }

    /** One payment's work; its failure (the database away while recording) is left to the lease, not to the claim. */
    private Mono<Void> perform(Claimed claimed) {
        return work.perform(claimed).onErrorResume(e -> {
            log.warn("Work on the payment of order {} ({}) failed; it is taken up again when its lease runs out: {}",
                    claimed.payment().orderId(), claimed.claimedIn(), Failures.describe(e));
            return Mono.empty();
        });
    }

    private void recovered() {
        int failedBefore = failuresInARow.getAndSet(0);
        if (failedBefore > 0) {
            log.info("Payment worker recovered after {} failed claims", failedBefore);
        }
    }

    private Mono<Integer> failed(Throwable e) {
        quietPolls.cycleEnded(true);
        int inARow = failuresInARow.incrementAndGet();
        // The first failure and every hundredth: an outage of minutes should not flood the log.
        if (inARow == 1 || inARow % 100 == 0) {
            log.warn("Payment worker claim failed ({} in a row), trying again at the next wake-up: {}", inARow,
                    Failures.describe(e));
        } else {
            log.debug("Payment worker claim failed ({} in a row): {}", inARow, Failures.describe(e));
        }
        return Mono.empty();
    }

    /**
     * The payments being worked on, at most {@code limit}. Each one's work runs by itself and frees its place when it
     * ends (within the lease: cancelling abandons the call, and the payment is reconciled after the lease); a claim
     * that was wanted meanwhile (no room, or more due than one claim took) is started then.
     */
    private final class Slots {

        private final int limit;
        private final AtomicInteger taken = new AtomicInteger();
        private final AtomicBoolean wanted = new AtomicBoolean();
        private final Set<Disposable> works = ConcurrentHashMap.newKeySet();

        Slots(int limit) {
            this.limit = limit;
        }

        int free() {
            return Math.max(0, limit - taken.get());
        }

        int taken() {
            return taken.get();
        }

        /** A round's payment, counted while it is worked on (rounds do not ask for room). */
        Mono<Void> counted(Mono<Void> payment) {
            return Mono.defer(() -> {
                taken.incrementAndGet();
                return payment.doFinally(signal -> released());
            });
        }

        /** Takes a place if there is one; tells whether it did. */
        boolean tryTake() {
            while (true) {
                int now = taken.get();
                if (now >= limit) {
                    return false;
                }
                if (taken.compareAndSet(now, now + 1)) {
                    return true;
                }
            }
        }

        void start(Claimed claimed) {
            taken.incrementAndGet();
            run(claimed, lease);
        }

        /** Works on a payment in a place already taken, for at most {@code timeout}, then frees the place. */
        void run(Claimed claimed, Duration timeout) {
            Disposable.Swap handle = Disposables.swap();
            works.add(handle);
            handle.update(perform(claimed)
                    .timeout(timeout)
                    .onErrorResume(e -> {
                        log.warn("Work on the payment of order {} abandoned after {}; it is taken up again when its "
                                + "lease runs out", claimed.payment().orderId(), timeout);
                        return Mono.empty();
                    })
                    .doFinally(signal -> {
                        works.remove(handle);
                        released();
                    })
                    .subscribe());
        }

        /** Asks for a claim as soon as there is room: now if there is, else when a payment's work ends. */
        void claimWhenFree() {
            wanted.set(true);
            // Room may have been freed before the flag was set; whoever clears the flag wakes the worker.
            if (free() > 0 && wanted.compareAndSet(true, false)) {
                wakeUps.wake();
            }
        }

        void released() {
            int left = taken.decrementAndGet();
            if (wanted.compareAndSet(true, false)) {
                wakeUps.wake();
            }
            if (left == 0) {
                synchronized (this) {
                    notifyAll();
                }
            }
        }

        /** Waits until no payment is being worked on, or the deadline passed; tells which. */
        boolean awaitIdle(long deadlineNanos) throws InterruptedException {
            synchronized (this) {
                while (taken.get() > 0) {
                    long left = deadlineNanos - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                }
                return true;
            }
        }

        void abandon() {
            works.forEach(Disposable::dispose);
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
        current.statistics().dispose();
        long deadline = System.nanoTime() + settings.drainTimeout().toNanos();
        try {
            // First the claim or the rounds in flight, then the payments still being worked on.
            boolean drained = current.drained().await(settings.drainTimeout().toMillis(), TimeUnit.MILLISECONDS)
                    && slots.awaitIdle(deadline);
            if (!drained) {
                log.warn("Payment worker still working after {}; abandoning its payments (they are taken up again "
                        + "when their leases run out)", settings.drainTimeout());
                abandon(current);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon(current);
        } finally {
            current.scheduler().dispose();
            log.info("Payment worker stopped");
        }
    }

    private void abandon(Running current) {
        current.loop().dispose();
        slots.abandon();
    }

    @Override
    public boolean isRunning() {
        synchronized (lifecycle) {
            return running != null;
        }
    }

    private record Running(Scheduler scheduler, Sinks.Empty<Void> stopping, Disposable loop,
            Disposable statistics, CountDownLatch drained) {
    }
}
