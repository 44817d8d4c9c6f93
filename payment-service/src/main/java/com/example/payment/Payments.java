package com.example.payment;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;

import com.example.events.OrderCancelled;
import com.example.events.PaymentEvent;
import com.example.events.PaymentFailed;
import com.example.events.PaymentRequested;
import com.example.payment.PaymentStateMachine.Transition;
import com.example.payment.persistence.PaymentRepository;
import com.example.payment.persistence.PaymentRepository.Claimed;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What order events do to payments. Both methods run inside the inbox transaction, so their effect and the events
 * they emit commit together, once per event. Neither calls the provider: charging and refunding are the worker's,
 * outside any transaction ({@link PaymentWorker}).
 *
 * <p>An OrderCancelled locks the payment while it decides, so the worker's claim (which skips locked rows) cannot move
 * the payment meanwhile: the cancel either fails a payment not yet claimed, or marks a claimed one for a refund.
 */
@Service
public class Payments {

    /** Why a payment cancelled before the provider was asked failed. */
    public static final String CANCELLED_BEFORE_PAYMENT = "order cancelled before payment";

    private static final Logger log = LoggerFactory.getLogger(Payments.class);

    private final PaymentRepository payments;
    private final WorkerWakeUps wakeUps;
    private final PaymentWorker worker;
    private final Duration lease;
    private final boolean startOnCommit;

    Payments(PaymentRepository payments, WorkerWakeUps wakeUps, PaymentWorker worker, PaymentProperties properties) {
        this.payments = payments;
        this.wakeUps = wakeUps;
        this.worker = worker;
        this.lease = properties.lease();
        this.startOnCommit = properties.worker().startOnCommit();
    }

    /**
     * Records the payment as CREATED for the worker to charge, unless the order has a payment in any status
     * already (the same request again, or a cancel that came first): then nothing happens. Answers with no event:
     * the worker publishes the outcome once the provider has answered.
     *
     * <p>While the worker has room, the charge starts without a claim: the payment takes a place in the worker
     * ({@link PaymentWorker#reserve}), the transaction moves it to PROCESSING just before it commits, as the claim
     * would (START_CHARGE, leased, in one statement for every payment of an inbox batch: {@link StartOnCommit}), and
     * its work starts in that place once the transaction has committed. A crash in between leaves a PROCESSING
     * payment whose lease runs out, as a crash before the call does. Without room, the worker is woken after the
     * commit and claims the payment when it has room.
     */
    public Flux<PaymentEvent> request(PaymentRequested requested) {
        return payments.insertRequested(requested.orderId(), requested.userId(), requested.amountCents())
                .flatMap(inserted -> {
                    if (inserted) {
                        return startOnCommit(requested.orderId());
                    }
                    log.debug("Payment of order {} asked for again: it exists already, nothing to do",
                            requested.orderId());
                    return Mono.<Void>empty();
                })
                .thenMany(Flux.empty());
    }

    /**
     * Undoes the order's payment as far as it got (see {@link PaymentStateMachine#onCancel}). A payment not asked for
     * yet is recorded as FAILED without an amount, so the PaymentRequested that may still come charges nothing.
     */
    public Flux<PaymentEvent> cancel(OrderCancelled cancelled) {
        long orderId = cancelled.orderId();
        return payments.insertCancelled(orderId, CANCELLED_BEFORE_PAYMENT)
                .flatMapMany(inserted -> inserted ? Flux.<PaymentEvent>empty() : cancelExisting(orderId));
    }

    private Flux<PaymentEvent> cancelExisting(long orderId) {
        return payments.findForUpdate(orderId).flatMapMany(payment -> switch (PaymentStateMachine.onCancel(payment)) {
            // order-service hears that the payment step ended (it ignores answers for orders already final).
            case FAIL_BEFORE_CHARGE -> payments.move(orderId, Transition.CANCEL_BEFORE_CHARGE, null, null,
                            CANCELLED_BEFORE_PAYMENT)
                    .map(moved -> (PaymentEvent) new PaymentFailed(UUID.randomUUID(), orderId, CANCELLED_BEFORE_PAYMENT,
                            Instant.now()))
                    .flux();
            case REFUND_ONCE_CHARGED -> payments.requestRefund(orderId, payment.status())
                    .flatMap(marked -> marked && payment.status() == PaymentStatus.SUCCEEDED ? wakeWorkerAfterCommit()
                            : Mono.<Void>empty())
                    .thenMany(Flux.<PaymentEvent>empty());
            case NOTHING -> Flux.<PaymentEvent>empty();
        });
    }

    public Mono<Payment> find(long orderId) {
        return payments.find(orderId);
    }

    /**
     * Has the charge of the payment just inserted start once the transaction commits, in a place taken in the worker
     * now; when there is none (or no transaction), the worker is woken after the commit instead, to claim it.
     */
    private Mono<Void> startOnCommit(long orderId) {
        if (!startOnCommit) {
            return wakeWorkerAfterCommit();
        }
        return TransactionSynchronizationManager.forCurrentTransaction()
                .filter(TransactionSynchronizationManager::isSynchronizationActive)
                .flatMap(transaction -> Mono.justOrEmpty(worker.reserve())
                        .map(place -> {
                            StartOnCommit starts = (StartOnCommit) transaction.getResource(StartOnCommit.class);
                            if (starts == null) {
                                starts = new StartOnCommit(payments, lease);
                                transaction.bindResource(StartOnCommit.class, starts);
                                transaction.registerSynchronization(starts);
                            }
                            starts.add(orderId, place);
                            return true;
                        }))
                .onErrorResume(NoTransactionException.class, noTransaction -> Mono.empty())
                .switchIfEmpty(Mono.defer(() -> wakeWorkerAfterCommit().thenReturn(false)))
                .then();
    }

    /**
     * The payments a transaction inserted with a place in the worker: just before the transaction commits, one
     * statement moves those still CREATED to PROCESSING (START_CHARGE, leased: {@link PaymentRepository#startCharges});
     * once it has committed, each moved payment's charge starts in its place. The place of a payment not moved (a
     * cancel in the same transaction failed it first) or of a transaction that did not commit is given back.
     */
    static final class StartOnCommit implements TransactionSynchronization {

        private final PaymentRepository payments;
        private final Duration lease;
        private final Map<Long, PaymentWorker.Place> places = new ConcurrentHashMap<>();
        private final Map<Long, Payment> moved = new ConcurrentHashMap<>();

        StartOnCommit(PaymentRepository payments, Duration lease) {
            this.payments = payments;
            this.lease = lease;
        }

        void add(long orderId, PaymentWorker.Place place) {
            PaymentWorker.Place before = places.put(orderId, place);
            if (before != null) {
                before.giveBack();
            }
        }

        @Override
        public Mono<Void> beforeCommit(boolean readOnly) {
            return payments.startCharges(List.copyOf(places.keySet()), lease)
                    .doOnNext(payment -> moved.put(payment.orderId(), payment))
                    .then();
        }

        @Override
        public Mono<Void> afterCompletion(int status) {
            return Mono.fromRunnable(() -> places.forEach((orderId, place) -> {
                Payment payment = moved.get(orderId);
                if (status == STATUS_COMMITTED && payment != null) {
                    place.start(new Claimed(payment, PaymentStatus.CREATED));
                } else {
                    place.giveBack();
                }
            }));
        }
    }

    /**
     * The worker finds the payment at its next poll anyway; waking it once the inbox transaction has committed
     * saves that wait (woken earlier, its claim would not see the row yet).
     */
    private Mono<Void> wakeWorkerAfterCommit() {
        return TransactionSynchronizationManager.forCurrentTransaction()
                .flatMap(transaction -> {
                    if (!transaction.isSynchronizationActive()) {
                        return Mono.<Void>fromRunnable(wakeUps::wake);
                    }
                    transaction.registerSynchronization(new TransactionSynchronization() {
                        @Override
                        public Mono<Void> afterCommit() {
                            return Mono.fromRunnable(wakeUps::wake);
                        }
                    });
                    return Mono.<Void>empty();
                })
                .onErrorResume(NoTransactionException.class, noTransaction -> Mono.fromRunnable(wakeUps::wake));
    }
}
