package com.example.messaging.deadletter;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.RabbitUtils;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

import com.example.events.Subscriptions;
import com.example.service.failure.Failures;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.ReturnListener;
import com.rabbitmq.client.ShutdownSignalException;

/**
 * The dead-letter queues on the broker: how many messages each holds, and moving them back to their queue.
 * Every method blocks on broker round trips: call it from a scheduler that may block, never from an event loop.
 *
 * <p>It has a connection of its own (same broker, user and vhost as the application's), with simple publisher
 * confirms: the application's channels answer confirms and returns to the relay's correlation data, and an
 * operator moving thousands of messages should not queue behind the relay or the consumers.
 *
 * <h2>Moving messages back, at least once</h2>
 * Messages are taken with basic.get and manual acknowledgement, published to their queue through the service's
 * dead-letter exchange with the queue's re-drive key ({@link Subscriptions#redriveRoutingKey}, mandatory, as
 * {@link DeadLetterCopy} describes; the queue is bound with that key first, which is idempotent), and acknowledged in the
 * dead-letter queue only once the broker has confirmed every copy of the batch and returned none. A nack, a
 * return (the queue does not exist) or no confirm in time hands the batch back to the dead-letter queue (nack
 * with requeue) and stops; a lost connection does the same on the broker's side. A crash between the confirm
 * and the ack leaves a message in both queues: a duplicate, which the inbox recognises by its message_id; a
 * message is never lost. The work is bounded by the depth the dead-letter queue had when the move started, so a
 * message that fails again at once and comes back is not moved round and round.
 */
final class DeadLetterBroker implements AutoCloseable {

    /** Messages published before waiting for their confirms. */
    static final int BATCH = 100;

    private final CachingConnectionFactory connections;
    private final RabbitTemplate template;
    private final String deadLetterExchange;
    private final Duration confirmTimeout;

    /**
     * @param connections        used by this object only, closed with it
     * @param deadLetterExchange the service's dead-letter exchange, which its queues dead-letter through
     */
    DeadLetterBroker(CachingConnectionFactory connections, String deadLetterExchange, Duration confirmTimeout) {
        connections.setPublisherConfirmType(CachingConnectionFactory.ConfirmType.SIMPLE);
        connections.setPublisherReturns(false);
        this.connections = connections;
        this.template = new RabbitTemplate(connections);
        this.deadLetterExchange = deadLetterExchange;
        this.confirmTimeout = confirmTimeout;
    }

    /** Messages ready in each queue, in the order given; 0 for a queue that does not exist (nothing reached it). */
    Map<String, Long> depths(List<String> queues) {
        Map<String, Long> depths = new LinkedHashMap<>();
        // One channel per queue: a passive declare of a missing queue closes its channel.
        queues.forEach(queue -> depths.put(queue, template.execute(channel -> depth(channel, queue))));
        return depths;
    }

    /**
     * Moves the messages {@code deadLetterQueue} holds now back to {@code queue}.
     *
     * @return how many were moved
     * @throws RedriveFailed when the broker failed or refused before every message was moved; it says how many were
     */
    long redrive(String deadLetterQueue, String queue) {
        AtomicLong moved = new AtomicLong();
        try {
            template.execute(channel -> {
                move(channel, deadLetterQueue, queue, moved);
                return null;
            });
        } catch (RuntimeException failure) {
            throw new RedriveFailed(deadLetterQueue, moved.get(), failure);
        }
        return moved.get();
    }

    private void move(Channel channel, String deadLetterQueue, String queue, AtomicLong moved)
            throws IOException, InterruptedException {
        long budget = depth(channel, deadLetterQueue);
        if (budget == 0) {
            return;
        }
        // Before taking anything: a missing queue or exchange closes the channel, and the messages stay where they are.
        channel.queueDeclarePassive(queue);
        String redriveKey = Subscriptions.redriveRoutingKey(queue);
        // The service's broker user may write to its own exchanges only: the way back into the queue is a binding
        // of its own dead-letter exchange (the topology step declares it too).
        channel.queueBind(queue, deadLetterExchange, redriveKey);
        AtomicBoolean returned = new AtomicBoolean();
        // The broker sends a return before the confirm of the same message, so it is seen before the wait ends.
        ReturnListener onReturn = channel.addReturnListener(ret -> returned.set(true));
        try {
            while (moved.get() < budget) {
                long lastTag = -1;
                int batch = 0;
                while (batch < BATCH && moved.get() + batch < budget) {
                    GetResponse dead = channel.basicGet(deadLetterQueue, false);
                    if (dead == null) {
                        break;
                    }
                    channel.basicPublish(deadLetterExchange, redriveKey, true, DeadLetterCopy.of(dead.getProps()), dead.getBody());
                    lastTag = dead.getEnvelope().getDeliveryTag();
                    batch++;
                }
                if (batch == 0) {
                    return;
                }
                confirm(channel, queue, lastTag, returned);
                channel.basicAck(lastTag, true);
                moved.addAndGet(batch);
            }
        } finally {
            channel.removeReturnListener(onReturn);
        }
    }

    /** Returns once every copy up to {@code lastTag} is confirmed; otherwise hands them back and throws. */
    private void confirm(Channel channel, String queue, long lastTag, AtomicBoolean returned)
            throws IOException, InterruptedException {
        String refusal;
        try {
            boolean acked = channel.waitForConfirms(confirmTimeout.toMillis());
            refusal = !acked ? "the broker refused (nack) a copy"
                    : returned.get() ? "the broker returned a copy: no queue " + queue : null;
        } catch (TimeoutException e) {
            refusal = "no confirm from the broker within " + confirmTimeout;
        }
        if (refusal != null) {
            // Some copies may have reached the queue anyway: they are duplicates, which the inbox skips.
            channel.basicNack(lastTag, true, true);
            throw new IllegalStateException(refusal + "; the batch went back to the dead-letter queue");
        }
    }

    private static long depth(Channel channel, String queue) throws IOException {
        try {
            return channel.queueDeclarePassive(queue).getMessageCount();
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException signal
                    && RabbitUtils.isPassiveDeclarationChannelClose(signal)) {
                return 0;
            }
            throw e;
        }
    }

    @Override
    public void close() {
        connections.destroy();
    }

    /** Moving stopped early: the broker failed or refused. The messages not moved are still in the dead-letter queue. */
    static final class RedriveFailed extends RuntimeException {

        private final long moved;

        RedriveFailed(String deadLetterQueue, long moved, Throwable cause) {
            super("moving the messages of " + deadLetterQueue + " back stopped after " + moved + ": "
                    + Failures.causes(cause).reduce((outer, inner) -> inner).map(Throwable::getMessage).orElse(""),
                    cause);
            this.moved = moved;
        }

        long moved() {
            return moved;
        }
    }
}
