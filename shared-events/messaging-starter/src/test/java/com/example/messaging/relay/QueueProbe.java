package com.example.messaging.relay;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

/**
 * A durable queue bound to an exchange, standing in for a consumer: it collects everything that
 * arrives, in arrival order, so a test can count duplicates and check order. Closing deletes the queue.
 */
final class QueueProbe implements AutoCloseable {

    private final AmqpAdmin admin;
    private final RabbitTemplate rabbit;
    private final String exchange;
    private final Queue queue;
    private final List<String> routingKeys = new ArrayList<>();
    private final List<Message> received = new ArrayList<>();

    private QueueProbe(AmqpAdmin admin, RabbitTemplate rabbit, String exchange, Queue queue) {
        this.admin = admin;
        this.rabbit = rabbit;
        this.exchange = exchange;
        this.queue = queue;
    }

    static QueueProbe bind(AmqpAdmin admin, RabbitTemplate rabbit, String exchange, String routingKey) {
        admin.declareExchange(new TopicExchange(exchange, true, false));
        Queue queue = new Queue("probe-" + UUID.randomUUID(), true, false, false);
        admin.declareQueue(queue);
        return new QueueProbe(admin, rabbit, exchange, queue).alsoBind(routingKey);
    }

    QueueProbe alsoBind(String routingKey) {
        admin.declareBinding(BindingBuilder.bind(queue).to(new TopicExchange(exchange)).with(routingKey));
        routingKeys.add(routingKey);
        return this;
    }

    /** Declares the exchange, the queue and its bindings again (idempotent): a broker that crashed may have lost them. */
    QueueProbe redeclare() {
        admin.declareExchange(new TopicExchange(exchange, true, false));
        admin.declareQueue(queue);
        routingKeys.forEach(key -> admin.declareBinding(BindingBuilder.bind(queue).to(new TopicExchange(exchange)).with(key)));
        return this;
    }

    /** Takes whatever is waiting and returns everything received so far. */
    synchronized List<Message> drain() {
        Message message;
        while ((message = rabbit.receive(queue.getName())) != null) {
            received.add(message);
        }
        return List.copyOf(received);
    }

    List<String> messageIds() {
        return drain().stream().map(m -> m.getMessageProperties().getMessageId()).toList();
    }

    /** Messages waiting in the queue, without taking them. */
    long depth() {
        return admin.getQueueInfo(queue.getName()).getMessageCount();
    }

    @Override
    public void close() {
        admin.deleteQueue(queue.getName());
    }
}
