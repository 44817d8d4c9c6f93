package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import com.example.messaging.support.Backoff;

class RelayPropertiesTests {

    private static RelayProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("messaging.relay", RelayProperties.class);
    }

    @Test
    void hasSaneDefaults() {
        RelayProperties properties = bind(Map.of());

        assertThat(properties.enabled()).isTrue();
        assertThat(properties.batchSize()).isEqualTo(200);
        assertThat(properties.lanes()).isEqualTo(2);
        assertThat(properties.pollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(properties.confirmTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(properties.cycleTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(properties.parkAfter()).isEqualTo(Duration.ofMinutes(5));
        assertThat(properties.drainTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(properties.backoff()).isEqualTo(
                new Backoff(Duration.ofMillis(500), 2.0, Duration.ofSeconds(30), 0.5));
        assertThat(properties.exchanges()).isEmpty();
        assertThat(properties.health().maxUnsentAge()).isEqualTo(Duration.ofMinutes(1));
        assertThat(properties.retention()).isEqualTo(
                new RelayProperties.Retention(Duration.ofDays(7), Duration.ofMinutes(1), 500));
        assertThat(properties.listener().enabled()).isTrue();
    }

    @Test
    void bindsAListOfExchangesAndNestedSettings() {
        RelayProperties properties = bind(Map.of("messaging.relay.exchanges", "order.events,risk.events",
                "messaging.relay.backoff.max", "5s", "messaging.relay.retention.age", "2d"));

        assertThat(properties.exchanges()).containsExactly("order.events", "risk.events");
        assertThat(properties.backoff().max()).isEqualTo(Duration.ofSeconds(5));
        assertThat(properties.retention().age()).isEqualTo(Duration.ofDays(2));
    }

    @Test
    void refusesSettingsThatCannotWork() {
        assertThatThrownBy(() -> bind(Map.of("messaging.relay.batch-size", "0"))).isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("messaging.relay.batch-size");
        assertThatThrownBy(() -> bind(Map.of("messaging.relay.lanes", "0"))).isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("messaging.relay.lanes");
        assertThatThrownBy(() -> bind(Map.of("messaging.relay.backoff.jitter", "1.5")))
                .rootCause().hasMessageContaining("backoff.jitter");
        assertThatThrownBy(() -> bind(Map.of("messaging.relay.backoff.initial", "1m", "messaging.relay.backoff.max", "1s")))
                .rootCause().hasMessageContaining("backoff.max");
        assertThatThrownBy(() -> bind(Map.of("messaging.relay.poll-interval", "0s")))
                .rootCause().hasMessageContaining("poll-interval");
        assertThatThrownBy(() -> bind(Map.of("messaging.relay.confirm-timeout", "30s", "messaging.relay.cycle-timeout", "20s")))
                .rootCause().hasMessageContaining("cycle-timeout");
        assertThatThrownBy(() -> bind(Map.of("messaging.relay.confirm-timeout", "15s")))
                .rootCause().hasMessageContaining("drain-timeout");
        assertThatThrownBy(() -> bind(Map.of("messaging.relay.park-after", "0s")))
                .rootCause().hasMessageContaining("park-after");
    }
}
