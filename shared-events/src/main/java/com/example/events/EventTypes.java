package com.example.events;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Maps an {@code event_type} name to its record, derived from the sealed hierarchy so it cannot drift. */
public final class EventTypes {

    private static final Map<String, Class<? extends DomainEvent>> BY_NAME = leaves(DomainEvent.class)
            .collect(Collectors.toUnmodifiableMap(Class::getSimpleName, Function.identity()));

    private EventTypes() {
    }

    public static Optional<Class<? extends DomainEvent>> forName(String eventType) {
        return Optional.ofNullable(eventType).map(BY_NAME::get);
    }

    public static Map<String, Class<? extends DomainEvent>> all() {
        return BY_NAME;
    }

    @SuppressWarnings("unchecked")
    private static Stream<Class<? extends DomainEvent>> leaves(Class<?> type) {
        if (!type.isSealed()) {
            return Stream.of((Class<? extends DomainEvent>) type);
        }
        return Arrays.stream(type.getPermittedSubclasses()).flatMap(EventTypes::leaves);
    }
}
