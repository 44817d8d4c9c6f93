package com.example.messaging.relay;

import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeFormatter;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;

import com.example.events.DomainEvent;
import com.example.events.EventHeaders;

/** Turns an outbox row into the AMQP message of the contract (docs/contract.md, "Events on RabbitMQ"). */
final class EventMessages {

    private EventMessages() {
    }

    static Message toMessage(OutboxRow row) {
        MessageProperties properties = new MessageProperties();
        // The row id is the event id: consumers deduplicate on it, so a republished row is recognisable.
        properties.setMessageId(row.id().toString());
        properties.setContentType(MessageProperties.CONTENT_TYPE_JSON);
        properties.setContentEncoding(StandardCharsets.UTF_8.name());
        properties.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
        properties.setHeader(EventHeaders.EVENT_TYPE, row.eventType());
        properties.setHeader(EventHeaders.AGGREGATE_TYPE, row.aggregateType());
        properties.setHeader(EventHeaders.AGGREGATE_ID, row.aggregateId());
        properties.setHeader(EventHeaders.SCHEMA_VERSION, DomainEvent.SCHEMA_VERSION);
        properties.setHeader(EventHeaders.OCCURRED_AT, row.occurredAt() != null ? row.occurredAt()
                : DateTimeFormatter.ISO_INSTANT.format(row.createdAt()));
        if (row.traceparent() != null) {
            properties.setHeader(EventHeaders.TRACEPARENT, row.traceparent());
        }
        return new Message(row.payload().getBytes(StandardCharsets.UTF_8), properties);
    }

    /** The routing key is the event type, so a consumer binds to the types it wants. */
    static String routingKey(OutboxRow row) {
        return row.eventType();
    }
}
