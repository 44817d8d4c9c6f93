package com.example.messaging.inbox;

import java.io.IOException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.support.AmqpHeaders;
import org.springframework.messaging.Message;

import com.rabbitmq.client.Channel;

/**
 * The broker's handle on one delivery, for a binding in manual acknowledge mode: the inbox decides
 * itself when a message is done (after commit) or goes back to the queue (shutdown during an outage).
 * A failed ack or nack is only logged: the channel is gone, so the broker redelivers the message,
 * and the inbox recognises it as a duplicate or applies it then.
 */
final class Acknowledgement {

    private static final Logger log = LoggerFactory.getLogger(Acknowledgement.class);

    private final Channel channel;
    private final long tag;

    private Acknowledgement(Channel channel, long tag) {
        this.channel = channel;
        this.tag = tag;
    }

    static Acknowledgement of(Message<?> message) {
        Channel channel = message.getHeaders().get(AmqpHeaders.CHANNEL, Channel.class);
        Long tag = message.getHeaders().get(AmqpHeaders.DELIVERY_TAG, Long.class);
        if (channel == null || tag == null) {
            throw new IllegalStateException("The inbox acknowledges messages itself: the binding needs "
                    + "spring.cloud.stream.rabbit.bindings.<binding>.consumer.acknowledge-mode=MANUAL "
                    + "(the messaging starter's defaults set it for every binding)");
        }
        return new Acknowledgement(channel, tag);
    }

    void ack() {
        try {
            channel.basicAck(tag, false);
        } catch (IOException | RuntimeException e) {
            log.warn("Could not acknowledge delivery {}; the broker will redeliver it: {}", tag, e.toString());
        }
    }

    void requeue() {
        try {
            channel.basicNack(tag, false, true);
        } catch (IOException | RuntimeException e) {
            log.warn("Could not requeue delivery {}; the broker will redeliver it: {}", tag, e.toString());
        }
    }
}
