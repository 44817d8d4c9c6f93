package com.example.messaging.inbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.amqp.support.AmqpHeaders;
import org.springframework.integration.amqp.inbound.AmqpInboundChannelAdapter;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

/**
 * A batch as the RabbitMQ binder hands it over in batch mode: one message whose payload is the list of bodies and
 * whose {@value AmqpInboundChannelAdapter#CONSOLIDATED_HEADERS} header is the list of each delivery's headers (its id,
 * type, delivery tag, queue...); the channel is the batch's. Split back into the deliveries, each one what the inbox
 * gets from a binding without batches, so everything that reads a delivery reads these the same way.
 */
final class InboxBatch {

    private InboxBatch() {
    }

    static List<Message<byte[]>> split(Message<?> batch, List<?> bodies) {
        Object perDelivery = batch.getHeaders().get(AmqpInboundChannelAdapter.CONSOLIDATED_HEADERS);
        if (!(perDelivery instanceof List<?> headers) || headers.size() != bodies.size()) {
            throw new IllegalStateException("A batch of " + bodies.size() + " bodies without the headers of each ("
                    + AmqpInboundChannelAdapter.CONSOLIDATED_HEADERS + "): the inbox binding must use the RabbitMQ "
                    + "binder's consumer-side batching (enable-batching with batch-mode)");
        }
        Object channel = batch.getHeaders().get(AmqpHeaders.CHANNEL);
        List<Message<byte[]>> deliveries = new ArrayList<>(bodies.size());
        for (int i = 0; i < bodies.size(); i++) {
            if (!(bodies.get(i) instanceof byte[] body) || !(headers.get(i) instanceof Map<?, ?> delivery)) {
                throw new IllegalStateException("The inbox reads raw bodies: the binding must not convert its input");
            }
            MessageBuilder<byte[]> builder = MessageBuilder.withPayload(body);
            delivery.forEach((name, value) -> builder.setHeader(String.valueOf(name), value));
            deliveries.add(builder.setHeader(AmqpHeaders.CHANNEL, channel).build());
        }
        return deliveries;
    }
}
