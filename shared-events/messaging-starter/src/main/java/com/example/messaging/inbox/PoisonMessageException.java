package com.example.messaging.inbox;

import org.springframework.amqp.AmqpRejectAndDontRequeueException;

/**
 * A message that can never be applied, however often it is retried: no or a malformed
 * {@code message_id}, an unknown {@code event_type}, an unparseable body, or a business-invalid
 * payload; or one whose transaction timed out too often while the database answered. The inbox sends it to
 * the dead-letter queue, with the reason in the {@value com.example.events.EventHeaders#POISON_REASON} header.
 *
 * <p>It is an {@link AmqpRejectAndDontRequeueException} that rejects even in manual acknowledge
 * mode, so that should it ever reach the listener container (a binding without
 * {@code republishToDlq}), the broker dead-letters it rather than redelivering it forever.
 */
public class PoisonMessageException extends AmqpRejectAndDontRequeueException {

    public PoisonMessageException(String reason) {
        super(reason, true, null);
    }

    public PoisonMessageException(String reason, Throwable cause) {
        super(reason, true, cause);
    }
}
