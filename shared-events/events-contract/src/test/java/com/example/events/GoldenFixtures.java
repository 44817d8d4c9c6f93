package com.example.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

/** The committed example body of every event type ({@code events/<Type>.json}, shipped with the contract). */
final class GoldenFixtures {

    private GoldenFixtures() {
    }

    /** Every event type of the contract, in name order. */
    static Stream<String> eventTypes() {
        return EventTypes.all().keySet().stream().sorted();
    }

    static String read(String eventType) {
        try (InputStream in = GoldenFixtures.class.getResourceAsStream("/events/" + eventType + ".json")) {
            assertThat(in).as("golden file events/%s.json", eventType).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
