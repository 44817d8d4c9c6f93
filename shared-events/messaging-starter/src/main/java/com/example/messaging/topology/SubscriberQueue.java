package com.example.messaging.topology;

import java.util.Map;
import java.util.Set;

/**
 * One consumer group's queue on one exchange, with its dead-letter queue, exactly as that group's binder declares
 * them.
 *
 * @param routingKeys            the event types the queue is bound to its exchange with
 * @param deadLetterRoutingKeys  the keys binding the dead-letter queue to the dead-letter exchange
 */
record SubscriberQueue(String name, String exchange, Set<String> routingKeys, Map<String, Object> arguments,
        String deadLetterQueue, Map<String, Object> deadLetterArguments, Set<String> deadLetterRoutingKeys) {

    SubscriberQueue {
        routingKeys = Set.copyOf(routingKeys);
        arguments = Map.copyOf(arguments);
        deadLetterArguments = Map.copyOf(deadLetterArguments);
        deadLetterRoutingKeys = Set.copyOf(deadLetterRoutingKeys);
    }
}
