package com.example.payment;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.example.messaging.support.Backoff;

/**
 * Settings of payment-service ({@code payment.*}).
 *
 * @param provider the external payment provider and how it is called
 * @param worker   the loop that charges, reconciles and refunds
 */
@ConfigurationProperties("payment")
public record PaymentProperties(@DefaultValue Provider provider, @DefaultValue Worker worker) {

    /**
     * @param url            the provider's base URL
     * @param apiKey         the provider's secret API key, sent as a bearer token; required
     * @param timeout        how long one request waits for its answer once sent; no answer is an unknown outcome
     * @param connectTimeout how long a connection may take to open
     * @param retries        quick retries of a request that could not connect or got a 5xx (same Idempotency-Key)
     * @param retryBackoff   the pause before the first quick retry; it doubles up to {@code retryMaxBackoff}
     * @param retryMaxBackoff the longest pause between quick retries
     * @param maxAttempts    attempts at a charge after which a payment the provider has no charge for (404 for its
     *                       key) is given up as FAILED; while the outcome is unknown it is never given up
     */
    public record Provider(@DefaultValue("http://localhost:8090") URI url, String apiKey,
            @DefaultValue("2s") Duration timeout, @DefaultValue("1s") Duration connectTimeout,
            @DefaultValue("2") int retries, @DefaultValue("100ms") Duration retryBackoff,
            @DefaultValue("1s") Duration retryMaxBackoff, @DefaultValue("10") int maxAttempts) {

        public Provider {
            if (apiKey == null || apiKey.isBlank()) {
                throw new IllegalArgumentException("payment.provider.api-key is not set: payment-service needs the "
                        + "payment provider's secret API key (environment variable PAYMENT_PROVIDER_API_KEY)");
            }
            if (url == null || url.getScheme() == null || url.getHost() == null) {
                throw new IllegalArgumentException("payment.provider.url must be an absolute URL, was " + url);
            }
            requirePositive(timeout, "payment.provider.timeout");
            requirePositive(connectTimeout, "payment.provider.connect-timeout");
            requirePositive(retryBackoff, "payment.provider.retry-backoff");
            requirePositive(retryMaxBackoff, "payment.provider.retry-max-backoff");
            if (retries < 0) {
                throw new IllegalArgumentException("payment.provider.retries must not be negative");
            }
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("payment.provider.max-attempts must be at least 1");
            }
        }

        /**
         * The longest one try of a request may take: waiting for a pooled connection and opening one (each bounded by
         * the connect timeout), then waiting for the answer.
         */
        public Duration attemptTimeout() {
            return connectTimeout.multipliedBy(2).plus(timeout);
        }

        /** The longest one call to the provider can take, its quick retries and their pauses included. */
        public Duration callBudget() {
            return attemptTimeout().multipliedBy(retries + 1L).plus(retryMaxBackoff.multipliedBy(retries));
        }

        @Override
        public String toString() {
            // Never the key: this record may end up in a log line or an error message.
            return "Provider[url=" + url + ", timeout=" + timeout + ", retries=" + retries + "]";
        }
    }

    /**
     * @param pollInterval  how often the worker looks for due payments besides being woken (when one is asked for, or
     *                      when one this instance left for later is due again): for the payments of other instances,
     *                      including those that crashed, and any wake-up that was lost; once per
     *                      {@code stats-interval} instead while the worker has nothing in hand and the payment figures
     *                      see no payment with work left anywhere
     * @param inFlight      payments the worker works on at the same time: a claim takes at most as many as are free,
     *                      and each payment frees its place as soon as its own work is over
     * @param batchSize     payments one claim takes at most
     * @param startOnCommit whether a payment asked for while there is room is moved to PROCESSING by the transaction
     *                      that records it, just before it commits, and its charge started right after, without a
     *                      claim ({@code false}: it is recorded CREATED and claimed, a switch for measuring)
     * @param inRounds      whether the worker works in rounds that end together instead ({@code false}): a round
     *                      claims up to {@code batch-size} payments and works on them until the slowest is done,
     *                      {@code concurrent-rounds} rounds at a time (the way before; a switch for measuring)
     * @param concurrentRounds rounds that may run at the same time when {@code in-rounds} (1: one round at a time)
     * @param leaseMargin   added to the longest an attempt can take: how long a claimed payment is left to the
     *                      instance that claimed it before another may take it up
     * @param backoff       the pause before asking the provider again about a payment whose outcome is unknown
     * @param statsInterval how often the payment gauges, and the figures that let an idle worker poll less, are
     *                      refreshed from the database
     * @param drainTimeout  how long stopping waits for the work in flight
     * @param recordTogether whether the outcomes that arrive while one is being recorded are then recorded
     *                       together, in one statement ({@link MoveRecorder}), rather than each in its own (false: a
     *                       switch for measuring what it saves)
     */
    public record Worker(@DefaultValue("1s") Duration pollInterval, @DefaultValue("32") int inFlight,
            @DefaultValue("16") int batchSize, @DefaultValue("true") boolean startOnCommit,
            @DefaultValue("false") boolean inRounds,
            @DefaultValue("2") int concurrentRounds, @DefaultValue("1s") Duration leaseMargin,
            @DefaultValue Backoff backoff,
            @DefaultValue("10s") Duration statsInterval, @DefaultValue("10s") Duration drainTimeout,
            @DefaultValue("true") boolean recordTogether) {

        public Worker {
            requirePositive(pollInterval, "payment.worker.poll-interval");
            requirePositive(leaseMargin, "payment.worker.lease-margin");
            requirePositive(statsInterval, "payment.worker.stats-interval");
            requirePositive(drainTimeout, "payment.worker.drain-timeout");
            if (inFlight < 1) {
                throw new IllegalArgumentException("payment.worker.in-flight must be at least 1");
            }
            if (batchSize < 1) {
                throw new IllegalArgumentException("payment.worker.batch-size must be at least 1");
            }
            if (concurrentRounds < 1) {
                throw new IllegalArgumentException("payment.worker.concurrent-rounds must be at least 1");
            }
        }

        /** The most calls to the provider this instance makes at the same time (an attempt makes them in series). */
        public int callsAtOnce() {
            return inRounds ? batchSize * concurrentRounds : inFlight;
        }
    }

    /**
     * How long a claimed payment belongs to the instance that claimed it: an attempt makes at most two calls (a
     * reconciliation looks the charge up, then may charge again), each within the provider's call budget.
     */
    public Duration lease() {
        return provider.callBudget().multipliedBy(2).plus(worker.leaseMargin());
    }

    private static void requirePositive(Duration value, String name) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
    }
}
