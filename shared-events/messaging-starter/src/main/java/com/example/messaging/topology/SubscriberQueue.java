package com.example.messaging.topology;

import java.util.Map;
import java.util.Set;

/**
 * One consumer group's queue on one exchange, with its dead-letter queue, exactly as that group's binder declares
 * them.
 *
 * @param routingKeys            the event types the queue is bound to its exchange with
 * @param deadLetterExchange     the group's own dead-letter exchange
 * @param deadLetterRoutingKeys  the keys binding the dead-letter queue to the dead-letter exchange
 * @param redriveRoutingKey      the key binding the queue itself to the dead-letter exchange, which an operator's
 *                               re-drive publishes with
 */
record SubscriberQueue(String group, String name, String exchange, Set<String> routingKeys,
        Map<String, Object> arguments, String deadLetterExchange, String deadLetterQueue,
        Map<String, Object> deadLetterArguments, Set<String> deadLetterRoutingKeys, String redriveRoutingKey) {

    SubscriberQueue {
        routingKeys = Set.copyOf(routingKeys);
        arguments = Map.copyOf(arguments);
        deadLetterArguments = Map.copyOf(deadLetterArguments);
        deadLetterRoutingKeys = Set.copyOf(deadLetterRoutingKeys);
    }
}
