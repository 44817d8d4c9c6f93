package com.example.events;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.cfg.MapperBuilder;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapping of the system: snake_case names, RFC 3339 times, unknown fields tolerated on
 * read (a newer producer may add fields). Services apply the same settings to their web layer.
 */
public final class EventJson {

    private static final JsonMapper MAPPER = configure(JsonMapper.builder()).build();

    private EventJson() {
    }

    /** Applies the shared settings to any Jackson builder (used for Spring's own mapper too). */
    public static <B extends MapperBuilder<?, ?>> B configure(B builder) {
        builder.propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DateTimeFeature.WRITE_DATES_WITH_ZONE_ID)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                // A number is a number: "42" or 4.2 where an integer is expected is an error, not a guess.
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS);
        return builder;
    }

    public static JsonMapper mapper() {
        return MAPPER;
    }

    public static String write(DomainEvent event) {
        return MAPPER.writeValueAsString(event);
    }

    /** Reads a body whose type is known from the {@code event_type} header. */
    public static DomainEvent read(String eventType, byte[] json) {
        Class<? extends DomainEvent> type = EventTypes.forName(eventType)
                .orElseThrow(() -> new EventFormatException("unknown event type '" + eventType + "'"));
        return read(json, type);
    }

    public static <T extends DomainEvent> T read(byte[] json, Class<T> type) {
        try {
            T event = MAPPER.readValue(json, type);
            if (event == null) {
                throw new EventFormatException(type.getSimpleName() + ": empty body");
            }
            return event;
        } catch (ValueInstantiationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new EventFormatException(type.getSimpleName() + ": " + cause.getMessage(), e);
        } catch (JacksonException e) {
            throw new EventFormatException(type.getSimpleName() + ": malformed JSON: " + e.getOriginalMessage(), e);
        }
    }

    public static <T extends DomainEvent> T read(String json, Class<T> type) {
        return read(json.getBytes(java.nio.charset.StandardCharsets.UTF_8), type);
    }
}
