package com.example.payment.provider;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.http.codec.json.JacksonJsonDecoder;
import org.springframework.http.codec.json.JacksonJsonEncoder;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;

import com.example.events.EventJson;
import com.example.payment.PaymentProperties;
import com.example.service.failure.Failures;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.channel.ChannelOption;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.util.retry.Retry;

/**
 * The payment provider's API (the IETF Idempotency-Key draft, as Stripe does it): every charge and refund carries an
 * {@code Idempotency-Key}, so that asking again can only return what the first request did, never do it twice.
 *
 * <p>A request that could not connect, or that got a 5xx, is retried a few times at once with the same key (a 5xx
 * may have charged, and the key makes asking again safe). A request that was sent and got no answer in time is not
 * retried here: its outcome is unknown, and the worker resolves it later by looking the charge up under its key.
 * Every call ends in an outcome, never in an error: whatever happens on the wire, the worker can decide what to
 * record.
 */
@Component
public class ProviderClient implements DisposableBean {

    /** The metric counting the provider's answers, tagged by operation and outcome. */
    public static final String REQUESTS = "payment.provider.requests";

    private static final Logger log = LoggerFactory.getLogger(ProviderClient.class);
    private static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /** How much of an unexpected answer's body goes into an outcome (and a log line). */
    private static final int MAX_DETAIL = 300;

    private final ConnectionProvider connections;
    private final WebClient client;
    private final Duration attemptTimeout;
    private final Retry quickRetries;
    private final Meter.MeterProvider<Counter> requests;

    ProviderClient(PaymentProperties properties, MeterRegistry meters) {
        PaymentProperties.Provider provider = properties.provider();
        // Idle connections are closed before a server would close them, so a request never goes out on a connection
        // that is already gone (which would look like a dropped answer: an unknown outcome for nothing).
        this.connections = ConnectionProvider.builder("payment-provider")
                .maxConnections(properties.worker().callsAtOnce())
                .maxIdleTime(Duration.ofSeconds(20))
                .pendingAcquireTimeout(provider.connectTimeout())
                .build();
        HttpClient http = HttpClient.create(connections)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.toIntExact(provider.connectTimeout().toMillis()))
                .responseTimeout(provider.timeout());
        this.client = WebClient.builder()
                .baseUrl(provider.url().toString())
                .clientConnector(new ReactorClientHttpConnector(http))
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + provider.apiKey())
                .codecs(codecs -> {
                    codecs.defaultCodecs().jacksonJsonEncoder(new JacksonJsonEncoder(EventJson.mapper()));
                    codecs.defaultCodecs().jacksonJsonDecoder(new JacksonJsonDecoder(EventJson.mapper()));
                })
                .build();
        // Bounds each try as a whole, as the worker's lease counts it (Netty's timeouts bound its parts).
        this.attemptTimeout = provider.attemptTimeout();
        this.quickRetries = Retry.backoff(provider.retries(), provider.retryBackoff())
                .maxBackoff(provider.retryMaxBackoff())
                .filter(ProviderClient::worthRetryingAtOnce)
                .onRetryExhaustedThrow((spec, signal) -> signal.failure());
        this.requests = Counter.builder(REQUESTS)
                .description("Calls to the payment provider, by operation and outcome (after quick retries)")
                .withRegistry(meters);
    }

    /** Closes the connections to the provider when the application stops. */
    @Override
    public void destroy() {
        connections.dispose();
    }

    /** {@code POST /charges}: charges the amount once under {@code key}, or returns what the key already did. */
    public Mono<ChargeOutcome> charge(String key, long amountCents, String reference) {
        Mono<ChargeOutcome> request = client.post().uri("/charges")
                .header(IDEMPOTENCY_KEY, key)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(new ChargeRequest(amountCents, reference))
                .exchangeToMono(response -> switch (response.statusCode().value()) {
                    case 200, 201 -> response.bodyToMono(ChargeBody.class).map(ChargeBody::outcome);
                    // The draft's answer while a request under the same key is still being processed.
                    case 409 -> detail(response).map(detail -> (ChargeOutcome) new ChargeOutcome.Unknown(
                            "a request under key " + key + " is still in progress at the provider: " + detail));
                    default -> otherwise(response, ChargeOutcome.Refused::new);
                });
        return call("charge", key, request, ChargeOutcome.Unknown::new);
    }

    /** {@code GET /charges?idempotency_key=}: what the provider did under {@code key}, if anything. */
    public Mono<ChargeOutcome> findCharge(String key) {
        Mono<ChargeOutcome> request = client.get()
                .uri(uri -> uri.path("/charges").queryParam("idempotency_key", key).build())
                .exchangeToMono(response -> switch (response.statusCode().value()) {
                    case 200 -> response.bodyToMono(ChargeBody.class).map(ChargeBody::outcome);
                    case 404 -> response.releaseBody().thenReturn((ChargeOutcome) new ChargeOutcome.NotFound());
                    default -> otherwise(response, ChargeOutcome.Refused::new);
                });
        return call("find", key, request, ChargeOutcome.Unknown::new);
    }

    /** {@code POST /charges/{id}/refunds}: refunds the charge in full once under {@code key}. */
    public Mono<RefundOutcome> refund(String chargeId, String key) {
        Mono<RefundOutcome> request = client.post().uri("/charges/{id}/refunds", chargeId)
                .header(IDEMPOTENCY_KEY, key)
                .exchangeToMono(response -> switch (response.statusCode().value()) {
                    case 200, 201 -> response.bodyToMono(RefundBody.class).map(RefundBody::outcome);
                    case 409 -> detail(response)
                            .map(detail -> (RefundOutcome) new RefundOutcome.RefundedElsewhere(detail));
                    default -> otherwise(response, RefundOutcome.Refused::new);
                });
        return call("refund", key, request, RefundOutcome.Unknown::new);
    }

    /**
     * One call: each attempt bounded in time, quick retries of what is safe to retry at once, and every error that
     * is left turned into an unknown outcome. Counted by operation and outcome.
     */
    private <T> Mono<T> call(String operation, String key, Mono<T> request, Function<String, T> unknown) {
        return request
                .switchIfEmpty(Mono.error(() -> new IllegalStateException("the provider answered without a body")))
                .timeout(attemptTimeout)
                .retryWhen(quickRetries)
                .onErrorResume(e -> {
                    String reason = Failures.describe(e);
                    log.debug("Provider {} under key {}: no conclusive answer: {}", operation, key, reason);
                    return Mono.just(unknown.apply(reason));
                })
                .doOnNext(outcome -> count(operation, outcome));
    }

    /** A 5xx becomes an error (retried at once, then unknown); any other status the provider refused with. */
    private static <T> Mono<T> otherwise(ClientResponse response, RefusalFactory<T> refused) {
        HttpStatus status = HttpStatus.resolve(response.statusCode().value());
        if (response.statusCode().is5xxServerError()) {
            return detail(response).flatMap(detail -> Mono.error(new ProviderServerError(
                    response.statusCode().value(), detail)));
        }
        int code = response.statusCode().value();
        return detail(response).map(detail -> refused.create(code, (status == null ? "" : status + ": ") + detail));
    }

    private static Mono<String> detail(ClientResponse response) {
        return response.bodyToMono(String.class).defaultIfEmpty("")
                .map(body -> body.length() > MAX_DETAIL ? body.substring(0, MAX_DETAIL) + "..." : body);
    }

    /**
     * Nothing was sent (no connection), or the provider said it failed (5xx, which with the same key is safe to ask
     * again). A timeout or a dropped connection after the request went out is not retried here: see the class
     * comment.
     */
    private static boolean worthRetryingAtOnce(Throwable failure) {
        return Failures.causes(failure).anyMatch(cause -> cause instanceof ProviderServerError
                || cause instanceof ConnectException || cause instanceof UnknownHostException);
    }

    private void count(String operation, Object outcome) {
        String kind = outcome.getClass().getSimpleName().toLowerCase(Locale.ROOT);
        requests.withTags("operation", operation, "outcome", kind).increment();
    }

    @FunctionalInterface
    private interface RefusalFactory<T> {
        T create(int status, String detail);
    }

    /** A 5xx from the provider. */
    private static final class ProviderServerError extends RuntimeException {

        ProviderServerError(int status, String detail) {
            super("the provider answered " + status + ": " + detail);
        }
    }

    /** The body of a charge request. */
    record ChargeRequest(long amountCents, String reference) {
    }

    /** A charge as the provider shows it. */
    record ChargeBody(String chargeId, String status, Long amountCents, String reference) {

        ChargeOutcome outcome() {
            if (chargeId == null || status == null) {
                return new ChargeOutcome.Unknown("the provider's charge has no charge_id or status: " + this);
            }
            return switch (status) {
                case "succeeded" -> amountCents == null
                        ? new ChargeOutcome.Unknown("the provider's charge " + chargeId + " has no amount_cents")
                        : new ChargeOutcome.Charged(chargeId, amountCents);
                case "declined" -> new ChargeOutcome.Declined(chargeId);
                default -> new ChargeOutcome.Unknown("the provider's charge " + chargeId + " has status " + status);
            };
        }
    }

    /** A refund as the provider shows it. */
    record RefundBody(String refundId, String chargeId, Long amountCents) {

        RefundOutcome outcome() {
            if (refundId == null) {
                return new RefundOutcome.Unknown("the provider's refund has no refund_id: " + this);
            }
            return new RefundOutcome.Refunded(refundId);
        }
    }
}
