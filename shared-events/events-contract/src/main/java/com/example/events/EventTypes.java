package com.example.events;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The type catalogue: maps an {@code event_type} name to its record and a record or family to the exchange it
 * travels on, derived from the sealed hierarchy so it cannot drift.
 */
public final class EventTypes {

    private static final Map<String, Class<? extends DomainEvent>> BY_NAME = leaves(DomainEvent.class)
            .collect(Collectors.toUnmodifiableMap(Class::getSimpleName, Function.identity()));

    /** One family per producer, each published on its own exchange. */
    private static final Map<Class<? extends DomainEvent>, String> EXCHANGES = Map.of(
            OrderEvent.class, OrderEvent.EXCHANGE,
            InventoryEvent.class, InventoryEvent.EXCHANGE,
            CouponEvent.class, CouponEvent.EXCHANGE,
            RiskEvent.class, RiskEvent.EXCHANGE,
            PaymentEvent.class, PaymentEvent.EXCHANGE);

    /** The service that publishes each family (on the family's exchange), by name. */
    private static final Map<String, Class<? extends DomainEvent>> PRODUCERS = Map.of(
            "order-service", OrderEvent.class,
            "inventory-service", InventoryEvent.class,
            "coupon-service", CouponEvent.class,
            "risk-service", RiskEvent.class,
            "payment-service", PaymentEvent.class);

    private EventTypes() {
    }

    public static Optional<Class<? extends DomainEvent>> forName(String eventType) {
        return Optional.ofNullable(eventType).map(BY_NAME::get);
    }

    public static Map<String, Class<? extends DomainEvent>> all() {
        return BY_NAME;
    }

    /**
     * The concrete event records a type stands for: itself for a record, every record of the family for a
     * sealed interface ({@code OrderEvent}, or {@code DomainEvent} for all of them).
     */
    public static Set<Class<? extends DomainEvent>> recordsOf(Class<? extends DomainEvent> type) {
        return leaves(type).collect(Collectors.toUnmodifiableSet());
    }

    /** Every exchange of the contract, one per producer, in name order. */
    public static SortedSet<String> exchanges() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(EXCHANGES.values()));
    }

    /** Every service that publishes events, by name, in name order. */
    public static SortedSet<String> producers() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(PRODUCERS.keySet()));
    }

    /** The exchange a service publishes to; empty for a service that publishes nothing. */
    public static Optional<String> exchangeOfProducer(String service) {
        return Optional.ofNullable(PRODUCERS.get(service)).map(EXCHANGES::get);
    }

    /**
     * The records a name stands for: an event record's own name ({@code "RiskApproved"}), or every record of a
     * producer's family ({@code "RiskEvent"}); empty for any other name.
     */
    public static Optional<Set<Class<? extends DomainEvent>>> recordsNamed(String name) {
        return forName(name).<Set<Class<? extends DomainEvent>>>map(Set::of)
                .or(() -> EXCHANGES.keySet().stream()
                        .filter(family -> family.getSimpleName().equals(name))
                        .findFirst()
                        .map(EventTypes::recordsOf));
    }

    /** The exchange a record, or a whole family, is published to. */
    public static String exchangeOf(Class<? extends DomainEvent> type) {
        return EXCHANGES.entrySet().stream()
                .filter(family -> family.getKey().isAssignableFrom(type))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(type.getSimpleName()
                        + " is not one producer's family or one of its records"));
    }

    @SuppressWarnings("unchecked")
    private static Stream<Class<? extends DomainEvent>> leaves(Class<?> type) {
        if (!type.isSealed()) {
            return Stream.of((Class<? extends DomainEvent>) type);
        }
        return Arrays.stream(type.getPermittedSubclasses()).flatMap(EventTypes::leaves);
    }
}
