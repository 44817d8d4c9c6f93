package com.example.payment;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.example.events.DomainEvent;
import com.example.events.PaymentFailed;
import com.example.events.PaymentRefunded;
import com.example.events.PaymentSucceeded;
import com.example.messaging.support.Backoff;
import com.example.payment.PaymentStateMachine.Transition;
import com.example.payment.persistence.PaymentRepository;
import com.example.payment.persistence.PaymentRepository.Claimed;
import com.example.payment.persistence.PaymentRepository.Move;
import com.example.payment.provider.ChargeOutcome;
import com.example.payment.provider.ProviderClient;
import com.example.payment.provider.RefundOutcome;
import com.example.service.faults.CrashPoints;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Mono;

/**
 * The work of one claimed payment (docs/architecture.md, rule 11): the intent is committed before the provider is
 * called (the claim moved the payment to PROCESSING, with its charge key), the call runs outside any transaction, and
 * its outcome is recorded afterwards, in one statement with the event that announces it. Every call carries the
 * payment's own key, so a call made again, by any instance after any crash, can only find the first charge.
 *
 * <ul>
 * <li>Charge (claimed CREATED): ask the provider to charge; record SUCCEEDED or FAILED, or, when there is no
 * conclusive answer, leave the payment PROCESSING for the reconciler, after a backoff.</li>
 * <li>Reconcile (PROCESSING whose lease or backoff ran out: a timeout, a 5xx, a crash before the outcome was recorded):
 * ask the provider what it did under the key. A charge it made or declined is recorded; none at all (404) means
 * it never charged, so it is asked to charge again, under the same key. After {@code max-attempts} it is given up as
 * FAILED, but only on that 404: while the outcome is unknown a payment is never given up, since money may have
 * moved.</li>
 * <li>Refund (SUCCEEDED, its order cancelled): refund under the payment's refund key until the provider confirms.</li>
 * </ul>
 */
@Component
class PaymentWork {

    static final String DECLINED = "declined by the provider";
    static final String PROVIDER_UNAVAILABLE = "provider unavailable";
    /** The counter of refunds the provider says were made under another key: an operator must look. */
    static final String REFUND_CONFLICTS = "payment.refund.conflicts";

    private static final Logger log = LoggerFactory.getLogger(PaymentWork.class);

    private final PaymentRepository payments;
    private final MoveRecorder recorder;
    private final ProviderClient provider;
    private final CrashPoints crashPoints;
    private final WorkerWakeUps wakeUps;
    private final Backoff backoff;
    private final int maxAttempts;
    private final Counter refundConflicts;

    PaymentWork(PaymentRepository payments, MoveRecorder recorder, ProviderClient provider, CrashPoints crashPoints,
            WorkerWakeUps wakeUps, PaymentProperties properties, MeterRegistry meters) {
        this.payments = payments;
        this.recorder = recorder;
        this.provider = provider;
        this.crashPoints = crashPoints;
        this.wakeUps = wakeUps;
        this.backoff = properties.worker().backoff();
        this.maxAttempts = properties.provider().maxAttempts();
        this.refundConflicts = Counter.builder(REFUND_CONFLICTS)
                .description("Refunds the provider refused because the charge was refunded under another key")
                .register(meters);
    }

    Mono<Void> perform(Claimed claimed) {
        Payment payment = claimed.payment();
        return switch (PaymentStateMachine.work(claimed.claimedIn())) {
            case CHARGE -> charge(payment);
            case RECONCILE -> reconcile(payment);
            case REFUND -> refund(payment);
        };
    }

    private Mono<Void> charge(Payment payment) {
        return Mono.fromRunnable(() -> crashPoints.reach(PaymentCrashPoints.BEFORE_CHARGE))
                .then(Mono.defer(() -> provider.charge(payment.chargeKey(), payment.amountCents(),
                        Payment.reference(payment.orderId()))))
                .flatMap(outcome -> {
                    if (outcome instanceof ChargeOutcome.Charged || outcome instanceof ChargeOutcome.Declined) {
                        crashPoints.reach(PaymentCrashPoints.AFTER_CHARGE_BEFORE_RECORD);
                    }
                    return record(payment, outcome);
                });
    }

    private Mono<Void> reconcile(Payment payment) {
        return provider.findCharge(payment.chargeKey()).flatMap(outcome -> {
            if (outcome instanceof ChargeOutcome.Charged || outcome instanceof ChargeOutcome.Declined) {
                log.warn("Reconciled the payment of order {}: the provider's answer under key {} had been lost: {}",
                        payment.orderId(), payment.chargeKey(), outcome);
                return record(payment, outcome);
            }
            if (outcome instanceof ChargeOutcome.NotFound) {
                if (payment.attempts() >= maxAttempts) {
                    return giveUp(payment);
                }
                log.warn("Reconciling the payment of order {}: the provider has no charge under key {}; asking it to "
                        + "charge again with the same key (attempt {} of {})", payment.orderId(), payment.chargeKey(),
                        payment.attempts(), maxAttempts);
                return charge(payment);
            }
            return unresolved(payment, outcome);
        });
    }

    private Mono<Void> record(Payment payment, ChargeOutcome outcome) {
        long orderId = payment.orderId();
        if (outcome instanceof ChargeOutcome.Charged charged) {
            if (charged.amountCents() != payment.amountCents()) {
                log.error("The provider charged {} cents for order {} under key {}, not the {} asked for",
                        charged.amountCents(), orderId, payment.chargeKey(), payment.amountCents());
            }
            return move(payment, Transition.CHARGED, charged.chargeId(), null, null,
                    new PaymentSucceeded(UUID.randomUUID(), orderId, payment.amountCents(), charged.chargeId(),
                            Instant.now()))
                    .doOnNext(moved -> {
                        if (moved.cancelRequested()) {
                            // Cancelled while the charge was in flight: the refund is due now.
                            wakeUps.wake();
                        }
                    })
                    .then();
        }
        if (outcome instanceof ChargeOutcome.Declined) {
            return move(payment, Transition.DECLINED, null, null, DECLINED,
                    new PaymentFailed(UUID.randomUUID(), orderId, DECLINED, Instant.now())).then();
        }
        return unresolved(payment, outcome);
    }

    private Mono<Void> giveUp(Payment payment) {
        log.warn("Gave up the payment of order {} after {} attempts: the provider never charged under key {}",
                payment.orderId(), payment.attempts(), payment.chargeKey());
        return move(payment, Transition.NEVER_CHARGED, null, null, PROVIDER_UNAVAILABLE,
                new PaymentFailed(UUID.randomUUID(), payment.orderId(), PROVIDER_UNAVAILABLE, Instant.now()))
                .then();
    }

    private Mono<Void> refund(Payment payment) {
        String key = payment.refundKey() != null ? payment.refundKey() : Payment.refundKey(payment.orderId());
        return provider.refund(payment.chargeId(), key).flatMap(outcome -> {
            if (outcome instanceof RefundOutcome.Refunded refunded) {
                return move(payment, Transition.REFUND, null, refunded.refundId(), null,
                        new PaymentRefunded(UUID.randomUUID(), payment.orderId(), payment.amountCents(),
                                payment.chargeId(), refunded.refundId(), Instant.now()))
                        .then();
            }
            if (outcome instanceof RefundOutcome.RefundedElsewhere elsewhere) {
                // Cannot happen with the refund key derived from the payment: someone refunded it by other means.
                refundConflicts.increment();
                log.error("The provider says the charge {} of order {} was refunded under another key than {}: {}. "
                        + "The payment stays SUCCEEDED for an operator to check; asking again in {}",
                        payment.chargeId(), payment.orderId(), key, elsewhere.detail(), backoff.max());
                return payments.retryLater(payment.orderId(), payment.status(), backoff.max());
            }
            return unresolved(payment, outcome);
        });
    }

    /** No conclusive answer: the payment stays as it is, and is taken up again after a backoff. */
    private Mono<Void> unresolved(Payment payment, Object outcome) {
        Duration delay = backoff.delayAfter(Math.max(1, payment.attempts()));
        if (outcome instanceof ChargeOutcome.Refused || outcome instanceof RefundOutcome.Refused) {
            log.error("The provider refused a request for the payment of order {} ({}): {}; asking again in {}",
                    payment.orderId(), payment.status(), outcome, delay);
        } else {
            log.warn("No conclusive answer from the provider for the payment of order {} ({}, attempt {}): {}; "
                    + "asking again in {}", payment.orderId(), payment.status(), payment.attempts(), outcome, delay);
        }
        return payments.retryLater(payment.orderId(), payment.status(), delay)
                .doOnSuccess(done -> wakeUps.wakeIn(delay));
    }

    /**
     * Records a transition and the event that announces it in one statement, with the other outcomes that arrive
     * meanwhile ({@link MoveRecorder}): both commit, or neither. Emits the moved payment, or nothing when the payment
     * had moved already (another instance recorded the same outcome first): then no event either.
     */
    private Mono<Payment> move(Payment payment, Transition transition, String chargeId, String refundId,
            String failureReason, DomainEvent announcement) {
        return recorder.record(new Move(payment.orderId(), transition, chargeId, refundId, failureReason, announcement))
                .doOnNext(moved -> log.info("Payment of order {}: {} -> {}", moved.orderId(), transition.from(),
                        transition.to()))
                .switchIfEmpty(Mono.fromRunnable(() -> log.debug("Payment of order {} was no longer {}: {} not "
                        + "recorded again", payment.orderId(), transition.from(), transition)));
    }
}
