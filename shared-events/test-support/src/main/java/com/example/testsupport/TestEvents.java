package com.example.testsupport;

import java.nio.charset.StandardCharsets;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

import com.example.events.DomainEvent;
import com.example.events.EventHeaders;
import com.example.events.EventJson;

/** Publishes events the way the contract says a relay does, for tests that play another service. */
public final class TestEvents {

    private TestEvents() {
    }

    public static void publish(RabbitTemplate rabbit, DomainEvent event) {
        rabbit.send(event.exchange(), event.eventType(), message(event));
    }

    public static Message message(DomainEvent event) {
        MessageProperties properties = new MessageProperties();
        properties.setMessageId(event.eventId().toString());
        properties.setContentType(MessageProperties.CONTENT_TYPE_JSON);
        properties.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
        properties.setHeader(EventHeaders.EVENT_TYPE, event.eventType());
        properties.setHeader(EventHeaders.AGGREGATE_TYPE, event.aggregateType());
        properties.setHeader(EventHeaders.AGGREGATE_ID, event.aggregateId());
        properties.setHeader(EventHeaders.SCHEMA_VERSION, DomainEvent.SCHEMA_VERSION);
        properties.setHeader(EventHeaders.OCCURRED_AT, event.occurredAt().toString());
        return new Message(EventJson.write(event).getBytes(StandardCharsets.UTF_8), properties);
    }
}
