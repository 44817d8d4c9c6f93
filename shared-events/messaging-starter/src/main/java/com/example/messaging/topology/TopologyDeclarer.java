package com.example.messaging.topology;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
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

    /** Queues declared before each service had its own dead-letter exchange. */
    static final String UPGRADE_HINT = " (a queue declared by an earlier version, which dead-lettered through the"
            + " shared exchange DLX: docs/operations.md, \"Broker users\", says how to move it over)";

    private final Channel channel;

    TopologyDeclarer(Channel channel) {
        this.channel = channel;
    }

    /** Declares everything and returns one line per queue declared, dead-letter queues included. */
    List<String> declare(ContractTopology topology) {
        for (String exchange : topology.exchanges()) {
            exchange(exchange, topology.exchangeType());
        }
        topology.deadLetterExchanges().forEach(this::exchange);
        List<String> declared = new ArrayList<>();
        for (SubscriberQueue queue : topology.queues()) {
            declared.add(queue(queue.name(), queue.arguments(), queue.exchange(), queue.routingKeys()));
            declared.add(queue(queue.deadLetterQueue(), queue.deadLetterArguments(), queue.deadLetterExchange(),
                    queue.deadLetterRoutingKeys()));
            String redrive = queue.redriveRoutingKey();
            run("binding " + queue.deadLetterExchange() + " -> " + queue.name() + " (" + redrive + ")",
                    () -> channel.queueBind(queue.name(), queue.deadLetterExchange(), redrive));
        }
        return declared;
    }

    /** Durable, not auto-deleted, no arguments: as the binder and the relay declare exchanges. */
    private void exchange(String name, String type) {
        run("exchange " + name, () -> channel.exchangeDeclare(name, type, true, false, null));
    }

    /** A durable, shared, lasting queue (as the binder declares a group's queue) and its bindings. */
    private String queue(String name, Map<String, Object> arguments, String exchange, Set<String> routingKeys) {
        run("queue " + name, () -> channel.queueDeclare(name, true, false, false, arguments));
        SortedSet<String> keys = new TreeSet<>(routingKeys);
        for (String key : keys) {
            run("binding " + exchange + " -> " + name + " (" + key + ")", () -> channel.queueBind(name, exchange, key));
        }
        return name + " " + new TreeMap<>(arguments) + " bound to " + exchange + " " + keys;
    }

    private interface Declaration {

        void run() throws IOException;
    }

    private static void run(String what, Declaration declaration) {
        try {
            declaration.run();
        } catch (IOException | ShutdownSignalException e) {
            String reason = reason(e);
            throw new TopologyException("the broker refused " + what + ": " + reason
                    + (reason.contains("'x-dead-letter-exchange'") ? UPGRADE_HINT : ""), e);
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
