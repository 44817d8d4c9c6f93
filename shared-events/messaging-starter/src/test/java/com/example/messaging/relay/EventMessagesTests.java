package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;

class EventMessagesTests {

    private static final UUID ID = UUID.fromString("5b6f0f8e-8a53-4c6e-9a34-2d1b3c9e7f10");
    private static final String PAYLOAD = "{\"event_id\": \"5b6f0f8e-8a53-4c6e-9a34-2d1b3c9e7f10\", \"order_id\": 123}";

    private static OutboxRow row(String traceparent, String occurredAt) {
        return new OutboxRow(ID, "order", "123", "OrderCreated", "order.events", PAYLOAD, traceparent, occurredAt,
                Instant.parse("2026-11-30T10:15:31.500Z"), 0, null, false);
    }

    @Test
    void carriesTheContractsPropertiesAndHeaders() {
        Message message = EventMessages.toMessage(
                row("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "2026-11-30T10:15:30.123Z"));
        MessageProperties properties = message.getMessageProperties();

        assertThat(properties.getMessageId()).isEqualTo(ID.toString());
        assertThat(properties.getDeliveryMode()).isEqualTo(MessageDeliveryMode.PERSISTENT);
        assertThat(properties.getContentType()).isEqualTo("application/json");
        assertThat(properties.getHeaders()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "event_type", "OrderCreated",
                "aggregate_type", "order",
                "aggregate_id", "123",
                "schema_version", 1,
                "occurred_at", "2026-11-30T10:15:30.123Z",
                "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
        assertThat(new String(message.getBody(), StandardCharsets.UTF_8)).isEqualTo(PAYLOAD);
        assertThat(EventMessages.routingKey(row(null, null))).isEqualTo("OrderCreated");
    }

    @Test
    void leavesOutTheTraceparentWhenThereWasNone() {
        assertThat(EventMessages.toMessage(row(null, "2026-11-30T10:15:30.123Z")).getMessageProperties().getHeaders())
                .doesNotContainKey("traceparent");
    }

    @Test
    void fallsBackToTheRowsCreationTimeWhenThePayloadHasNoOccurredAt() {
        assertThat(EventMessages.toMessage(row(null, null)).getMessageProperties().<String>getHeader("occurred_at"))
                .isEqualTo("2026-11-30T10:15:31.500Z");
    }
}
