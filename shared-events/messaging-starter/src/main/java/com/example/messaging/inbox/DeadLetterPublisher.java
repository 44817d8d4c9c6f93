package com.example.messaging.inbox;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.retry.RepublishMessageRecoverer;
import org.springframework.amqp.support.AmqpHeaders;
import org.springframework.integration.amqp.support.DefaultAmqpHeaderMapper;
import org.springframework.messaging.Message;

import com.example.events.EventHeaders;

/**
 * Puts a poison delivery of a batch into its queue's dead-letter queue. For a single delivery, and for a batch's
 * delivery found poison while the listener thread reads it, the binder does that (the inbox throws, the binder's error
 * handler republishes the raw message); an event of a batch found poison once it is applied alone (after its batch's
 * transaction failed) is on a lane's thread, out of the binder's reach, so the inbox publishes it itself, the same way: the message as it
 * arrived (body, id, headers), plus the reason in {@value EventHeaders#POISON_REASON} and
 * {@code x-exception-message}, persistent, to {@code <queue>.dlq} through the service's dead-letter exchange with
 * the queue's name (as the binder's republisher does; never through the default exchange, which a service's broker
 * user may not write to), mandatory, and only then acknowledged. Without the broker's confirm (a nack, a return because the queue is missing, no answer in time)
 * the caller hands the delivery back to the queue instead: it comes back and is judged again.
 */
final class DeadLetterPublisher {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterPublisher.class);

    private final RabbitTemplate template;
    private final String deadLetterExchange;
    private final Duration confirmTimeout;
    private final DefaultAmqpHeaderMapper headers = DefaultAmqpHeaderMapper.outboundMapper();

    DeadLetterPublisher(ConnectionFactory connections, String deadLetterExchange, Duration confirmTimeout) {
        this.template = new RabbitTemplate(connections);
        // As the binder's republisher: a blocked publishing connection must not stop the consumers.
        this.template.setUsePublisherConnection(true);
        this.template.setMandatory(true);
        this.deadLetterExchange = deadLetterExchange;
        this.confirmTimeout = confirmTimeout;
    }

    /** True once the broker has confirmed the copy in the dead-letter queue. */
    boolean publish(Message<byte[]> delivery, String reason) {
        String queue = delivery.getHeaders().get(AmqpHeaders.CONSUMER_QUEUE, String.class);
        if (queue == null) {
            log.error("Poison delivery {} names no consumer queue; it goes back to its queue",
                    InboundEvent.idOf(delivery));
            return false;
        }
        MessageProperties properties = new MessageProperties();
        headers.fromHeadersToRequest(delivery.getHeaders(), properties);
        properties.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
        properties.setHeader(EventHeaders.POISON_REASON, reason);
        properties.setHeader(RepublishMessageRecoverer.X_EXCEPTION_MESSAGE, reason);
        properties.setHeader(RepublishMessageRecoverer.X_ORIGINAL_EXCHANGE,
                delivery.getHeaders().get(AmqpHeaders.RECEIVED_EXCHANGE));
        properties.setHeader(RepublishMessageRecoverer.X_ORIGINAL_ROUTING_KEY,
                delivery.getHeaders().get(AmqpHeaders.RECEIVED_ROUTING_KEY));
        CorrelationData correlation = new CorrelationData(UUID.randomUUID().toString());
        try {
            template.send(deadLetterExchange, queue, new org.springframework.amqp.core.Message(delivery.getPayload(),
                    properties), correlation);
            CorrelationData.Confirm confirm = correlation.getFuture().get(confirmTimeout.toMillis(),
                    TimeUnit.MILLISECONDS);
            if (correlation.getReturned() != null) {
                log.warn("The broker returned poison delivery {} ({}): no dead-letter queue is bound to {} with {}",
                        InboundEvent.idOf(delivery), correlation.getReturned().getReplyText(), deadLetterExchange,
                        queue);
                return false;
            }
            if (!confirm.ack()) {
                log.warn("The broker refused poison delivery {} for {}.dlq: {}", InboundEvent.idOf(delivery), queue,
                        confirm.reason());
                return false;
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            log.warn("Poison delivery {} not confirmed in {}.dlq: {}", InboundEvent.idOf(delivery), queue,
                    e.toString());
            return false;
        }
    }
}
