package com.example.messaging.topology;

import java.util.List;
import java.util.SortedSet;

import com.example.events.EventTypes;
import com.example.events.Subscriptions;
import com.example.events.Subscriptions.Subscription;

/**
 * Everything the event contract needs on a broker: one durable exchange per producer, the binder's dead-letter
 * exchange, and a queue with its dead-letter queue for every row of the subscription table.
 *
 * <p>Each queue is bound with the event types of its own exchange. A service that consumes from several exchanges
 * (order-service) has one binding for all of them, and its binder binds each of its queues with every routing key
 * of that binding; the other exchanges' types never occur on this exchange, so those extra bindings route nothing
 * and are left to the service.
 *
 * @param exchanges the producers' exchanges, of the binder's exchange type (topic)
 */
record ContractTopology(SortedSet<String> exchanges, String exchangeType, String deadLetterExchange,
        String deadLetterExchangeType, List<SubscriberQueue> queues) {

    static ContractTopology of(List<Subscription> subscriptions, QueueArguments arguments) {
        List<SubscriberQueue> queues = subscriptions.stream()
                .map(subscription -> new SubscriberQueue(subscription.queue(), subscription.exchange(),
                        subscription.eventTypes(), arguments.queue(subscription.queue()),
                        subscription.deadLetterQueue(), arguments.deadLetterQueue(),
                        arguments.deadLetterRoutingKeys(subscription.queue())))
                .toList();
        return new ContractTopology(EventTypes.exchanges(), arguments.exchangeType(), arguments.deadLetterExchange(),
                arguments.deadLetterExchangeType(), queues);
    }

    /** The contract's table with the consumer settings every service's binder runs with. */
    static ContractTopology forContract(QueueArguments arguments) {
        return of(Subscriptions.all(), arguments);
    }
}
