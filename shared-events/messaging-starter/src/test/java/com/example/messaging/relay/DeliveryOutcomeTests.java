package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.ReturnedMessage;
import org.springframework.amqp.rabbit.connection.CorrelationData;

/** Which publisher confirms count as delivered: an ack without a return, nothing else. */
class DeliveryOutcomeTests {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final OutboxRow ROW = new OutboxRow(UUID.randomUUID(), "order", "1", "OrderCreated",
            "order.events", "{}", null, null, Instant.parse("2026-11-30T09:59:59Z"), 2, null, false);

    @Test
    void anAckWithoutAReturnIsConfirmed() {
        CorrelationData correlation = new CorrelationData("c1");
        correlation.getFuture().complete(new CorrelationData.Confirm(true, null));

        Delivery delivery = OutboxPublisher.outcome(ROW, correlation, CLOCK, TIMEOUT);

        assertThat(delivery.isConfirmed()).isTrue();
        assertThat(delivery.confirmedAt()).isEqualTo(CLOCK.instant());
    }

    @Test
    void anAckedButReturnedMessageIsNotDelivered() {
        CorrelationData correlation = new CorrelationData("c2");
        correlation.setReturned(new ReturnedMessage(new Message(new byte[0], new MessageProperties()), 312,
                "NO_ROUTE", "order.events", "OrderCreated"));
        correlation.getFuture().complete(new CorrelationData.Confirm(true, null));

        Delivery delivery = OutboxPublisher.outcome(ROW, correlation, CLOCK, TIMEOUT);

        assertThat(delivery.isConfirmed()).isFalse();
        assertThat(delivery.failure().kind()).isEqualTo(DeliveryFailure.Kind.RETURNED);
        assertThat(delivery.failure().reason()).contains("312 NO_ROUTE", "order.events", "OrderCreated");
    }

    @Test
    void aNackIsNotDelivered() {
        CorrelationData correlation = new CorrelationData("c3");
        correlation.getFuture().complete(new CorrelationData.Confirm(false, "channel closed"));

        Delivery delivery = OutboxPublisher.outcome(ROW, correlation, CLOCK, TIMEOUT);

        assertThat(delivery.failure().kind()).isEqualTo(DeliveryFailure.Kind.NACKED);
        assertThat(delivery.failure().reason()).contains("channel closed");
    }

    @Test
    void noConfirmYetIsATimeout() {
        Delivery delivery = OutboxPublisher.outcome(ROW, new CorrelationData("c4"), CLOCK, TIMEOUT);

        assertThat(delivery.failure().kind()).isEqualTo(DeliveryFailure.Kind.TIMED_OUT);
        assertThat(delivery.failure().reason()).contains("PT10S");
    }

    @Test
    void onlyFailuresTheBrokerAnsweredOrLeftUnansweredCountTowardParking() {
        assertThat(DeliveryFailure.Kind.NACKED.countsTowardParking()).isTrue();
        assertThat(DeliveryFailure.Kind.RETURNED.countsTowardParking()).isTrue();
        assertThat(DeliveryFailure.Kind.TIMED_OUT.countsTowardParking()).isFalse();
        assertThat(DeliveryFailure.Kind.BROKER_UNAVAILABLE.countsTowardParking()).isFalse();
    }
}
