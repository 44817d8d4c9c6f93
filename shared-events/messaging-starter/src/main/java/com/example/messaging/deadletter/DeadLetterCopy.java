package com.example.messaging.deadletter;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.springframework.amqp.rabbit.retry.RepublishMessageRecoverer;

import com.example.events.EventHeaders;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.MessageProperties;

/**
 * What a dead letter looks like when it is moved back to its queue: the message as it was, with every property
 * and header (the event's id, type, aggregate, schema version, trace context, and the broker's {@code x-death}
 * history of how often and why it was dead-lettered), persistent, without what describes its last stay:
 * <ul>
 * <li>the reason it was refused ({@value EventHeaders#POISON_REASON}, and the binder's {@code x-exception-*} and
 * {@code x-original-*}): if it fails again, the inbox and the binder write the new reason; if it is then
 * dead-lettered by the broker instead (delivery limit), a stale poison reason would be read as the cause;</li>
 * <li>{@code x-delivery-count}, the dead-letter queue's own count of deliveries (it counts basic.get too); the
 * quorum queue counts the copy's deliveries afresh, which is what its delivery limit is about;</li>
 * <li>the {@code user_id} property: the broker refuses a publish whose user_id is not the publishing
 * connection's user, and the copy is published by this service.</li>
 * </ul>
 */
final class DeadLetterCopy {

    /** The headers of a message's last stay in a dead-letter queue, not carried over. */
    static final Set<String> DROPPED_HEADERS = Set.of(EventHeaders.POISON_REASON,
            RepublishMessageRecoverer.X_EXCEPTION_MESSAGE, RepublishMessageRecoverer.X_EXCEPTION_STACKTRACE,
            RepublishMessageRecoverer.X_ORIGINAL_EXCHANGE, RepublishMessageRecoverer.X_ORIGINAL_ROUTING_KEY,
            "x-delivery-count");

    private DeadLetterCopy() {
    }

    static AMQP.BasicProperties of(AMQP.BasicProperties dead) {
        Map<String, Object> headers = dead.getHeaders() == null ? new HashMap<>() : new HashMap<>(dead.getHeaders());
        headers.keySet().removeAll(DROPPED_HEADERS);
        return dead.builder()
                .headers(headers)
                .deliveryMode(MessageProperties.PERSISTENT_BASIC.getDeliveryMode())
                .userId(null)
                .build();
    }
}
