package com.example.messaging.relay;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.connection.Connection;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.connection.ConnectionListener;

/**
 * Declares the exchanges the relay publishes to as durable topic exchanges (docs/contract.md), once per
 * broker connection: the configured ones and any a row names. Declaring is idempotent on the broker,
 * so forgetting what was declared (new connection, failed publish) only costs a round trip, and an
 * exchange someone deleted comes back before the next publish.
 */
final class ExchangeDeclarer {

    private final AmqpAdmin admin;
    private final List<String> configured;
    private final Set<String> declared = ConcurrentHashMap.newKeySet();

    ExchangeDeclarer(AmqpAdmin admin, ConnectionFactory connectionFactory, List<String> configured) {
        this.admin = admin;
        this.configured = List.copyOf(configured);
        connectionFactory.addConnectionListener(new ConnectionListener() {

            @Override
            public void onCreate(Connection connection) {
                forget();
            }
        });
    }

    /** Blocking (broker round trips): call from the relay's scheduler, never from an event loop. */
    void declare(Collection<String> exchanges) {
        for (String exchange : exchanges) {
            if (!declared.contains(exchange)) {
                admin.declareExchange(new TopicExchange(exchange, true, false));
                declared.add(exchange);
            }
        }
    }

    void declareConfigured() {
        declare(configured);
    }

    boolean allConfiguredDeclared() {
        return declared.containsAll(configured);
    }

    void forget() {
        declared.clear();
    }
}
