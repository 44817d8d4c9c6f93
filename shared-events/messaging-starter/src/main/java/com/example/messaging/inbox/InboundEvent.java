package com.example.messaging.inbox;

import java.util.UUID;

import org.springframework.amqp.support.AmqpHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;

import com.example.events.DomainEvent;
import com.example.events.EventFormatException;
import com.example.events.EventHeaders;
import com.example.events.EventJson;
import com.example.events.EventTypes;

/**
 * An event as it arrived: its id (the AMQP {@code message_id}, the deduplication key), its type and
 * its body read into the event record. Whatever keeps a message from becoming one is poison.
 */
record InboundEvent(UUID id, String type, DomainEvent event, String traceparent) {

    /** The type used for metrics and logs of a message that may not have a valid one. */
    static String typeOf(Message<?> message) {
        String type = header(message.getHeaders(), EventHeaders.EVENT_TYPE);
        return EventTypes.forName(type).isPresent() ? type : "unknown";
    }

    static String idOf(Message<?> message) {
        return header(message.getHeaders(), AmqpHeaders.MESSAGE_ID);
    }

    /**
     * @param maxBytes the largest body read; a larger one is poison before anything reads it
     * @throws PoisonMessageException when the message cannot be turned into an event
     */
    static InboundEvent from(Message<byte[]> message, long maxBytes) {
        if (message.getPayload().length > maxBytes) {
            throw new PoisonMessageException("message of " + message.getPayload().length + " bytes is over the limit of "
                    + maxBytes + " bytes (messaging.inbox.max-message-size)");
        }
        MessageHeaders headers = message.getHeaders();
        UUID id = messageId(header(headers, AmqpHeaders.MESSAGE_ID));
        String type = header(headers, EventHeaders.EVENT_TYPE);
        if (type == null) {
            throw new PoisonMessageException("missing " + EventHeaders.EVENT_TYPE + " header");
        }
        checkSchemaVersion(header(headers, EventHeaders.SCHEMA_VERSION));
        DomainEvent event;
        try {
            event = EventJson.read(type, message.getPayload());
        } catch (EventFormatException e) {
            throw new PoisonMessageException(e.getMessage(), e);
        }
        if (!event.eventId().equals(id)) {
            throw new PoisonMessageException("message_id " + id + " differs from the body's event_id " + event.eventId());
        }
        return new InboundEvent(id, type, event, header(headers, EventHeaders.TRACEPARENT));
    }

    private static UUID messageId(String value) {
        if (value == null) {
            throw new PoisonMessageException("missing message_id");
        }
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            throw new PoisonMessageException("message_id '" + value + "' is not a UUID");
        }
    }

    /** A body written for a newer, incompatible schema cannot be read correctly by this version. */
    private static void checkSchemaVersion(String value) {
        if (value == null) {
            return;
        }
        int version;
        try {
            version = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new PoisonMessageException(EventHeaders.SCHEMA_VERSION + " '" + value + "' is not an integer");
        }
        if (version < 1 || version > DomainEvent.SCHEMA_VERSION) {
            throw new PoisonMessageException("unsupported " + EventHeaders.SCHEMA_VERSION + " " + version
                    + " (this consumer reads up to " + DomainEvent.SCHEMA_VERSION + ")");
        }
    }

    private static String header(MessageHeaders headers, String name) {
        Object value = headers.get(name);
        if (value == null) {
            return null;
        }
        String text = value.toString().strip();
        return text.isEmpty() ? null : text;
    }
}
