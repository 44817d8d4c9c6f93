package com.example.payment;

import java.time.Instant;
import java.util.UUID;

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
    private final WorkerWakeUps worker;

    Payments(PaymentRepository payments, WorkerWakeUps worker) {
        this.payments = payments;
        this.worker = worker;
    }

    /**
     * Records the payment as CREATED for the worker to charge, unless the order has a payment in any status
     * already (the same request again, or a cancel that came first): then nothing happens. Answers with no event:
     * the worker publishes the outcome once the provider has answered.
     */
    public Flux<PaymentEvent> request(PaymentRequested requested) {
        return payments.insertRequested(requested.orderId(), requested.userId(), requested.amountCents())
                .flatMap(inserted -> {
                    if (inserted) {
                        return wakeWorkerAfterCommit();
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
     * The worker finds the payment at its next poll anyway; waking it once the inbox transaction has committed
     * saves that wait (woken earlier, its claim would not see the row yet).
     */
    private Mono<Void> wakeWorkerAfterCommit() {
        return TransactionSynchronizationManager.forCurrentTransaction()
                .flatMap(transaction -> {
                    if (!transaction.isSynchronizationActive()) {
                        return Mono.<Void>fromRunnable(worker::wake);
                    }
                    transaction.registerSynchronization(new TransactionSynchronization() {
                        @Override
                        public Mono<Void> afterCommit() {
                            return Mono.fromRunnable(worker::wake);
                        }
                    });
                    return Mono.<Void>empty();
                })
                .onErrorResume(NoTransactionException.class, noTransaction -> Mono.fromRunnable(worker::wake));
    }
}
