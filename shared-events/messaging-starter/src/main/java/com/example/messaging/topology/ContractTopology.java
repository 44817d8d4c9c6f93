package com.example.messaging.topology;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.function.Function;

import com.example.events.EventTypes;
import com.example.events.Subscriptions;
import com.example.events.Subscriptions.Subscription;

/**
 * Everything the event contract needs on a broker: one durable exchange per producer, one dead-letter exchange per
 * consumer group, and a queue with its dead-letter queue for every row of the subscription table.
 *
 * <p>Each queue is bound with the event types of its own exchange. A service that consumes from several exchanges
 * (order-service) has one binding for all of them, and its binder binds each of its queues with every routing key
 * of that binding; the other exchanges' types never occur on this exchange, so those extra bindings route nothing
 * and are left to the service. Each queue is also bound to its group's dead-letter exchange with its re-drive key,
 * the way an operator's re-drive takes messages back.
 *
 * @param exchanges           the producers' exchanges, of the binder's exchange type (topic)
 * @param deadLetterExchanges each group's dead-letter exchange, name to type (direct)
 */
record ContractTopology(SortedSet<String> exchanges, String exchangeType,
        SortedMap<String, String> deadLetterExchanges, List<SubscriberQueue> queues) {

    /** @param arguments the consumer settings of each group's binder */
    static ContractTopology of(List<Subscription> subscriptions, Function<String, QueueArguments> arguments) {
        SortedMap<String, String> deadLetterExchanges = new TreeMap<>();
        List<SubscriberQueue> queues = subscriptions.stream()
                .map(subscription -> {
                    QueueArguments group = arguments.apply(subscription.group());
                    deadLetterExchanges.put(group.deadLetterExchange(), group.deadLetterExchangeType());
                    return new SubscriberQueue(subscription.group(), subscription.queue(), subscription.exchange(),
                            subscription.eventTypes(), group.queue(subscription.queue()), group.deadLetterExchange(),
                            subscription.deadLetterQueue(), group.deadLetterQueue(),
                            group.deadLetterRoutingKeys(subscription.queue()),
                            Subscriptions.redriveRoutingKey(subscription.queue()));
                })
                .toList();
        return new ContractTopology(EventTypes.exchanges(), QueueArguments.EXCHANGE_TYPE, deadLetterExchanges, queues);
    }

    /**
     * The contract's table with the consumer settings each service's binder resolves from the given environment
     * (the starter's defaults, the service's name, the variables).
     */
    static ContractTopology forContract(Map<String, ?> environment) {
        return of(Subscriptions.all(), group -> new QueueArguments(BinderConsumerSettings.load(environment, group)));
    }

    /** The queues of one group. */
    List<SubscriberQueue> queuesOf(String group) {
        return queues.stream().filter(queue -> queue.group().equals(group)).toList();
    }
}
