package com.example.payment;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.springframework.stereotype.Component;

import com.example.payment.persistence.PaymentRepository;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import reactor.core.publisher.Mono;

/**
 * The payments by status ({@value #BY_STATUS}, tagged {@code status}) and the age of the oldest PROCESSING payment
 * ({@value #OLDEST_PROCESSING_AGE}): a payment that stays PROCESSING is one whose outcome the provider keeps leaving
 * unknown, which an operator wants to see growing. The worker refreshes the figures every
 * {@code payment.worker.stats-interval}, so a scrape never queries the database. Between refreshes the age keeps
 * growing with the local clock. NaN before the first refresh.
 */
@Component
class PaymentMetrics {

    static final String BY_STATUS = "payments";
    static final String OLDEST_PROCESSING_AGE = "payments.oldest.processing.age";

    private final PaymentRepository payments;
    private volatile Snapshot snapshot;

    PaymentMetrics(PaymentRepository payments, MeterRegistry meters) {
        this.payments = payments;
        for (PaymentStatus status : PaymentStatus.values()) {
            Gauge.builder(BY_STATUS, this, metrics -> metrics.count(status))
                    .description("Payments in each status")
                    .tag("status", status.name())
                    .register(meters);
        }
        TimeGauge.builder(OLDEST_PROCESSING_AGE, this, TimeUnit.MILLISECONDS, PaymentMetrics::oldestProcessingMillis)
                .description("How long the oldest PROCESSING payment has been waiting for its outcome (0 when none)")
                .register(meters);
    }

    Mono<Void> refresh() {
        return Mono.defer(() -> {
            long asked = System.nanoTime();
            return payments.countByStatus().zipWith(payments.workLeft(),
                    (counts, left) -> new Snapshot(counts, left, System.nanoTime(), asked));
        }).doOnNext(taken -> snapshot = taken).then();
    }

    /**
     * Whether figures asked for after {@code sinceNanos} (a {@link System#nanoTime()} reading) found no payment with
     * work left: none of any instance waited to be charged, reconciled or refunded, every payment committed before
     * that moment visible to them.
     */
    boolean noWorkLeftSince(long sinceNanos) {
        Snapshot current = snapshot;
        return current != null && current.askedAtNanos() - sinceNanos > 0 && !current.workLeft().any();
    }

    private double count(PaymentStatus status) {
        Snapshot current = snapshot;
        return current == null ? Double.NaN : current.counts().getOrDefault(status, 0L);
    }

    private double oldestProcessingMillis() {
        Snapshot current = snapshot;
        if (current == null) {
            return Double.NaN;
        }
        return current.workLeft().oldestProcessing()
                .map(age -> age.plusNanos(Math.max(0, System.nanoTime() - current.takenAtNanos())).toMillis())
                .orElse(0L);
    }

    private record Snapshot(Map<PaymentStatus, Long> counts, PaymentRepository.WorkLeft workLeft, long takenAtNanos,
            long askedAtNanos) {
    }
}
