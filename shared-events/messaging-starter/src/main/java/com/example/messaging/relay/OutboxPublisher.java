package com.example.messaging.relay;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.ReturnedMessage;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

import com.example.service.failure.Failures;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Publishes a batch of rows and finds out, per row, whether the broker took responsibility for it.
 *
 * <p>Spring AMQP's {@link RabbitTemplate} rather than a Spring Cloud Stream output binding: the relay
 * needs, for each message, its own publisher confirm and whether it was returned as unroutable
 * ({@link CorrelationData} carries both, and a return is recorded before the confirm completes), a
 * {@code mandatory} publish, and an exchange chosen per row at publish time. A binding is one
 * destination with binder-managed headers and error channels; the template gives exactly these
 * three things with nothing in between.
 *
 * <p>The whole batch is published first, on one channel, and then the confirms are awaited together
 * (pipelined), bounded by the confirm timeout; publishing and waiting one message at a time would
 * cost a broker round trip per event. Both block, so they run on the relay's own scheduler.
 */
final class OutboxPublisher {

    private final RabbitTemplate template;
    private final ExchangeDeclarer declarer;
    private final Duration confirmTimeout;
    private final Clock clock;
    private final BrokerBlocks blocks;

    OutboxPublisher(RabbitTemplate template, ExchangeDeclarer declarer, Duration confirmTimeout, Clock clock,
            BrokerBlocks blocks) {
        this.template = template;
        this.blocks = blocks;
        this.declarer = declarer;
        this.confirmTimeout = confirmTimeout;
        this.clock = clock;
    }

    /**
     * @param scheduler where the sends run and the confirms are awaited (both block)
     * @return one delivery per row, in the order of {@code rows}
     */
    Mono<List<Delivery>> publish(List<OutboxRow> rows, Scheduler scheduler) {
        Optional<String> blocked = blocks.reason();
        if (blocked.isPresent()) {
            String reason = "the broker blocks publishing: " + blocked.get();
            return Mono.just(rows.stream().map(row -> Delivery.failed(row, DeliveryFailure.Kind.BLOCKED, reason)).toList());
        }
        return Mono.fromCallable(() -> outcomes(send(rows))).subscribeOn(scheduler);
    }

    /** Declares the configured exchanges if the broker has not seen them on this connection yet. */
    Mono<Void> declareConfiguredExchanges(Scheduler scheduler) {
        // A blocked connection reads nothing, declarations included: the call would hang until the alarm clears.
        if (declarer.allConfiguredDeclared() || blocks.reason().isPresent()) {
            return Mono.empty();
        }
        return Mono.fromRunnable(declarer::declareConfigured).subscribeOn(scheduler).then();
    }

    private List<InFlight> send(List<OutboxRow> rows) {
        List<InFlight> inFlight = new ArrayList<>(rows.size());
        Set<String> exchanges = new LinkedHashSet<>();
        rows.forEach(row -> exchanges.add(row.exchange()));
        String failure = null;
        try {
            declarer.declare(exchanges);
            // One channel for the whole batch, kept until its confirms are in: a channel handed back
            // to Spring AMQP's cache with confirms outstanding is waited on by a task of the library
            // that does not handle the broker closing the channel (spring-amqp GH-3448).
            template.invoke(operations -> {
                for (OutboxRow row : rows) {
                    CorrelationData correlation = new CorrelationData(UUID.randomUUID().toString());
                    operations.send(row.exchange(), EventMessages.routingKey(row), EventMessages.toMessage(row),
                            correlation);
                    inFlight.add(new InFlight(row, correlation, null));
                }
                awaitConfirms(inFlight);
                return null;
            });
        } catch (AmqpException e) {
            declarer.forget();
            failure = "not published: " + Failures.describe(e);
            // What went out before the failure may still have been confirmed.
            awaitConfirms(inFlight);
        }
        // Rows the batch did not get to because the connection or the channel failed: trying each of
        // them would only repeat the same failure.
        for (OutboxRow row : rows.subList(inFlight.size(), rows.size())) {
            inFlight.add(new InFlight(row, null, failure));
        }
        return inFlight;
    }

    /** Waits for the whole batch at once; what has no confirm by the timeout counts as timed out. */
    private void awaitConfirms(List<InFlight> inFlight) {
        CompletableFuture<?>[] confirms = inFlight.stream()
                .map(f -> f.correlation().getFuture())
                .toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(confirms).get(confirmTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // Each row's outcome is read from its own future.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<Delivery> outcomes(List<InFlight> inFlight) {
        List<Delivery> deliveries = new ArrayList<>(inFlight.size());
        for (InFlight f : inFlight) {
            deliveries.add(f.correlation() == null
                    ? Delivery.failed(f.row(), DeliveryFailure.Kind.BROKER_UNAVAILABLE, f.sendError())
                    : outcome(f.row(), f.correlation(), clock, confirmTimeout));
        }
        if (deliveries.stream().anyMatch(d -> !d.isConfirmed() && d.failure().kind() != DeliveryFailure.Kind.RETURNED)) {
            // A nack is what publishing to a deleted exchange looks like (the broker closes the channel):
            // declare again before the next batch.
            declarer.forget();
        }
        return deliveries;
    }

    /** Confirmed only on an ack without a return: an unroutable mandatory message is acked too. */
    static Delivery outcome(OutboxRow row, CorrelationData correlation, Clock clock, Duration confirmTimeout) {
        CompletableFuture<CorrelationData.Confirm> future = correlation.getFuture();
        if (!future.isDone()) {
            return Delivery.failed(row, DeliveryFailure.Kind.TIMED_OUT,
                    "no publisher confirm within " + confirmTimeout);
        }
        CorrelationData.Confirm confirm = future.isCompletedExceptionally() ? null : future.getNow(null);
        if (confirm == null || !confirm.ack()) {
            String reason = confirm == null ? null : confirm.reason();
            return Delivery.failed(row, DeliveryFailure.Kind.NACKED,
                    "nacked by the broker" + (reason == null ? "" : ": " + reason));
        }
        ReturnedMessage returned = correlation.getReturned();
        if (returned != null) {
            return Delivery.failed(row, DeliveryFailure.Kind.RETURNED, "returned by the broker: "
                    + returned.getReplyCode() + " " + returned.getReplyText() + " (exchange '"
                    + returned.getExchange() + "', routing key '" + returned.getRoutingKey() + "')");
        }
        return Delivery.confirmed(row, clock.instant());
    }

    /** A row on its way: published with its correlation, or not published at all because of {@code sendError}. */
    private record InFlight(OutboxRow row, CorrelationData correlation, String sendError) {
    }
}
