package com.example.events.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class RelayPropertiesTests {

    private static RelayProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("outbox.relay", RelayProperties.class);
    }

    @Test
    void hasSaneDefaults() {
        RelayProperties properties = bind(Map.of());

        assertThat(properties.enabled()).isTrue();
        assertThat(properties.batchSize()).isEqualTo(200);
        assertThat(properties.pollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(properties.confirmTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(properties.cycleTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(properties.maxAttempts()).isEqualTo(12);
        assertThat(properties.backoff()).isEqualTo(
                new RelayProperties.Backoff(Duration.ofMillis(500), 2.0, Duration.ofSeconds(30), 0.5));
        assertThat(properties.exchanges()).isEmpty();
        assertThat(properties.health().maxUnsentAge()).isEqualTo(Duration.ofMinutes(1));
        assertThat(properties.janitor()).isEqualTo(
                new RelayProperties.Janitor(Duration.ofDays(7), Duration.ofMinutes(1), 500));
        assertThat(properties.listener().enabled()).isTrue();
    }

    @Test
    void bindsAListOfExchangesAndNestedSettings() {
        RelayProperties properties = bind(Map.of("outbox.relay.exchanges", "order.events,risk.events",
                "outbox.relay.backoff.max", "5s", "outbox.relay.janitor.retention", "2d"));

        assertThat(properties.exchanges()).containsExactly("order.events", "risk.events");
        assertThat(properties.backoff().max()).isEqualTo(Duration.ofSeconds(5));
        assertThat(properties.janitor().retention()).isEqualTo(Duration.ofDays(2));
    }

    @Test
    void refusesSettingsThatCannotWork() {
        assertThatThrownBy(() -> bind(Map.of("outbox.relay.batch-size", "0"))).isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("outbox.relay.batch-size");
        assertThatThrownBy(() -> bind(Map.of("outbox.relay.backoff.jitter", "1.5")))
                .rootCause().hasMessageContaining("outbox.relay.backoff.jitter");
        assertThatThrownBy(() -> bind(Map.of("outbox.relay.backoff.initial", "1m", "outbox.relay.backoff.max", "1s")))
                .rootCause().hasMessageContaining("backoff.max");
        assertThatThrownBy(() -> bind(Map.of("outbox.relay.poll-interval", "0s")))
                .rootCause().hasMessageContaining("poll-interval");
        assertThatThrownBy(() -> bind(Map.of("outbox.relay.confirm-timeout", "30s", "outbox.relay.cycle-timeout", "20s")))
                .rootCause().hasMessageContaining("cycle-timeout");
    }
}
