package com.example.events;

import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The subscription table of the contract (docs/contract.md, "Events on RabbitMQ"): the event records each consumer
 * group (a service's name) consumes. A group has one queue per exchange it consumes from, {@code <exchange>.<group>},
 * bound to the types it consumes there, with a dead-letter queue {@code <queue>.dlq}.
 *
 * <p>Every queue of this table must exist before the first event reaches its exchange, whichever services have
 * started (docs/architecture.md, rule 9): the topology provisioner declares them from this table, and a service's
 * inbox refuses to start when what its handlers handle is not its row here, since its queue would then miss the
 * events published before it first ran.
 */
public final class Subscriptions {

    private static final Map<String, Set<Class<? extends DomainEvent>>> CONSUMED = Map.of(
            "order-service", records(InventoryEvent.class, CouponEvent.class, RiskEvent.class, PaymentEvent.class),
            "inventory-service", records(OrderCreated.class, OrderCancelled.class),
            "coupon-service", records(OrderCreated.class, OrderCancelled.class),
            // An assessment has nothing to undo: risk-service's queue is not bound to OrderCancelled.
            "risk-service", records(OrderCreated.class),
            // A payment is asked for, and undone when its order is cancelled; OrderCreated is not its business.
            "payment-service", records(PaymentRequested.class, OrderCancelled.class));

    /**
     * One queue: a group's subscription to one exchange.
     *
     * @param eventTypes the routing keys the queue is bound with, in name order
     */
    public record Subscription(String group, String exchange, SortedSet<String> eventTypes) {

        public Subscription {
            eventTypes = Collections.unmodifiableSortedSet(new TreeSet<>(eventTypes));
        }

        /** {@code <exchange>.<group>}, the name the consumer's binder gives its queue. */
        public String queue() {
            return queueName(exchange, group);
        }

        /** {@code <exchange>.<group>.dlq}. */
        public String deadLetterQueue() {
            return deadLetterQueueName(queue());
        }
    }

    /** What a queue's name gets appended to name its dead-letter queue. */
    public static final String DEAD_LETTER_SUFFIX = ".dlq";

    private Subscriptions() {
    }

    /** The queue of {@code group} on {@code exchange}: {@code <exchange>.<group>}, as the consumer's binder names it. */
    public static String queueName(String exchange, String group) {
        return exchange + "." + group;
    }

    /** The dead-letter queue of a queue: {@code <queue>.dlq}. */
    public static String deadLetterQueueName(String queue) {
        return queue + DEAD_LETTER_SUFFIX;
    }

    /**
     * The routing key that takes a message from a group's dead-letter exchange back into {@code queue}:
     * {@code <queue>.redrive}. An operator's re-drive publishes there, so a service needs write on its own exchanges
     * only, never on the default exchange (which reaches every queue by name).
     */
    public static String redriveRoutingKey(String queue) {
        return queue + ".redrive";
    }

    /** Every consumer group of the contract, in name order. */
    public static SortedSet<String> groups() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(CONSUMED.keySet()));
    }

    /** The event records a group consumes; empty for a group the contract does not know. */
    public static Set<Class<? extends DomainEvent>> consumedBy(String group) {
        return CONSUMED.getOrDefault(group, Set.of());
    }

    /** What a group consumes, as its binder subscribes to it: exchange to event types, both in name order. */
    public static SortedMap<String, SortedSet<String>> routingKeysOf(String group) {
        SortedMap<String, SortedSet<String>> byExchange = new TreeMap<>();
        for (Class<? extends DomainEvent> record : consumedBy(group)) {
            byExchange.computeIfAbsent(EventTypes.exchangeOf(record), exchange -> new TreeSet<>())
                    .add(record.getSimpleName());
        }
        return byExchange;
    }

    /** Every queue of the table, by exchange, then group. */
    public static List<Subscription> all() {
        return CONSUMED.keySet().stream()
                .flatMap(group -> routingKeysOf(group).entrySet().stream()
                        .map(entry -> new Subscription(group, entry.getKey(), entry.getValue())))
                .sorted(Comparator.comparing(Subscription::exchange).thenComparing(Subscription::group))
                .toList();
    }

    @SafeVarargs
    private static Set<Class<? extends DomainEvent>> records(Class<? extends DomainEvent>... types) {
        return Stream.of(types).flatMap(type -> EventTypes.recordsOf(type).stream())
                .collect(Collectors.toUnmodifiableSet());
    }
}
