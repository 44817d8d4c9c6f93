package com.example.messaging.topology;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Method;
import com.rabbitmq.client.ShutdownSignalException;

/**
 * Declares a {@link ContractTopology} on one channel. Every declaration is idempotent on the broker: an existing
 * exchange, queue or binding with the same settings is left as it is, messages included. One with other settings
 * is refused by the broker (PRECONDITION_FAILED), which closes the channel; that ends the run with the broker's
 * reason, since the service's own declaration would fail the same way.
 */
final class TopologyDeclarer {

    private final Channel channel;

    TopologyDeclarer(Channel channel) {
        this.channel = channel;
    }

    /** Declares everything and returns one line per queue declared, dead-letter queues included. */
    List<String> declare(ContractTopology topology) {
        for (String exchange : topology.exchanges()) {
            run("exchange " + exchange, () -> channel.exchangeDeclare(exchange, topology.exchangeType(), true, false,
                    null));
        }
        run("exchange " + topology.deadLetterExchange(), () -> channel.exchangeDeclare(topology.deadLetterExchange(),
                topology.deadLetterExchangeType(), true, false, null));
        List<String> declared = new ArrayList<>();
        for (SubscriberQueue queue : topology.queues()) {
            run("queue " + queue.name(), () -> channel.queueDeclare(queue.name(), true, false, false, queue.arguments()));
            for (String routingKey : new TreeSet<>(queue.routingKeys())) {
                run("binding " + queue.exchange() + " -> " + queue.name() + " (" + routingKey + ")",
                        () -> channel.queueBind(queue.name(), queue.exchange(), routingKey));
            }
            declared.add(queue.name() + " " + new TreeMap<>(queue.arguments()) + " bound to "
                    + queue.exchange() + " " + new TreeSet<>(queue.routingKeys()));
            run("queue " + queue.deadLetterQueue(), () -> channel.queueDeclare(queue.deadLetterQueue(), true, false,
                    false, queue.deadLetterArguments()));
            for (String routingKey : queue.deadLetterRoutingKeys()) {
                run("binding " + topology.deadLetterExchange() + " -> " + queue.deadLetterQueue() + " (" + routingKey
                        + ")", () -> channel.queueBind(queue.deadLetterQueue(), topology.deadLetterExchange(), routingKey));
            }
            declared.add(queue.deadLetterQueue() + " " + new TreeMap<>(queue.deadLetterArguments())
                    + " bound to " + topology.deadLetterExchange() + " " + new TreeSet<>(queue.deadLetterRoutingKeys()));
        }
        return declared;
    }

    private interface Declaration {

        void run() throws IOException;
    }

    private static void run(String what, Declaration declaration) {
        try {
            declaration.run();
        } catch (IOException e) {
            throw new TopologyException("the broker refused " + what + ": " + reason(e), e);
        } catch (ShutdownSignalException e) {
            throw new TopologyException("the broker refused " + what + ": " + reason(e), e);
        }
    }

    /** The broker's own words, e.g. {@code PRECONDITION_FAILED - inequivalent arg 'x-delivery-limit' ...}. */
    static String reason(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ShutdownSignalException signal) {
                Method reason = signal.getReason();
                if (reason instanceof AMQP.Channel.Close close) {
                    return close.getReplyText();
                }
                if (reason instanceof AMQP.Connection.Close close) {
                    return close.getReplyText();
                }
            }
        }
        return String.valueOf(failure.getMessage());
    }
}
