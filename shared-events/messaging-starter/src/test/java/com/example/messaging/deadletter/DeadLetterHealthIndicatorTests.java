package com.example.messaging.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.AmqpConnectException;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

class DeadLetterHealthIndicatorTests {

    private static final String INVENTORY = "order.events.inventory-service.dlq";
    private static final String COUPON = "coupon.events.inventory-service.dlq";

    private final AtomicLong nanos = new AtomicLong();
    private Map<String, Long> depths = Map.of(COUPON, 0L, INVENTORY, 0L);
    private RuntimeException failure;
    private final DeadLetterMonitor monitor = new DeadLetterMonitor(List.of(COUPON, INVENTORY), queues -> {
        if (failure != null) {
            throw failure;
        }
        Map<String, Long> ordered = new LinkedHashMap<>();
        queues.forEach(queue -> ordered.put(queue, depths.get(queue)));
        return ordered;
    }, Duration.ofSeconds(15), Duration.ofSeconds(5), nanos::get);
    private final DeadLetterHealthIndicator health = new DeadLetterHealthIndicator(monitor);

    @Test
    void unknownUntilTheQueuesWereMeasured() {
        assertThat(health.health().getStatus()).isEqualTo(Status.UNKNOWN);
        assertThat(monitor.messages(INVENTORY)).isNaN();
    }

    @Test
    void upWhileEveryDeadLetterQueueIsEmpty() {
        monitor.refresh().block();

        Health result = health.health();

        assertThat(result.getStatus()).isEqualTo(Status.UP);
        assertThat(result.getDetails()).containsEntry("queues", Map.of(COUPON, 0L, INVENTORY, 0L))
                .containsEntry("messages", 0L).doesNotContainKey("reason");
    }

    @Test
    void aWarningWithEachQueuesDepthWhileAnyHoldsMessages() {
        depths = Map.of(COUPON, 0L, INVENTORY, 3L);
        monitor.refresh().block();

        Health result = health.health();

        assertThat(result.getStatus()).isEqualTo(DeadLetterHealthIndicator.WARNING);
        assertThat(result.getStatus().getCode()).isEqualTo("WARNING");
        assertThat(result.getDetails()).containsEntry("queues", Map.of(COUPON, 0L, INVENTORY, 3L))
                .containsEntry("messages", 3L);
        assertThat((String) result.getDetails().get("reason")).contains("/admin/dead-letters/{queue}/redrive");
    }

    @Test
    void aFailedRefreshKeepsTheLastFiguresAndSaysWhyTheyAreOld() {
        depths = Map.of(COUPON, 1L, INVENTORY, 0L);
        monitor.refresh().block();
        failure = new AmqpConnectException(new java.net.ConnectException("Connection refused"));
        nanos.addAndGet(Duration.ofSeconds(30).toNanos());

        assertThatThrownBy(() -> monitor.refresh().block()).isInstanceOf(AmqpConnectException.class);

        Health result = health.health();
        assertThat(result.getStatus()).isEqualTo(DeadLetterHealthIndicator.WARNING);
        assertThat(result.getDetails()).containsEntry("figures_age_seconds", 30.0);
        assertThat((String) result.getDetails().get("last_failure")).contains("Connection refused");
        assertThat(monitor.messages(COUPON)).isEqualTo(1.0);
    }

    @Test
    void aServiceThatConsumesNothingHasNoQueuesAndIsUp() {
        DeadLetterMonitor none = new DeadLetterMonitor(List.of(), queues -> {
            throw new AssertionError("nothing to ask the broker");
        }, Duration.ofSeconds(15), Duration.ofSeconds(5), nanos::get);

        assertThat(new DeadLetterHealthIndicator(none).health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void oneGaugePerQueueReadsTheLastFigures() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new DeadLetterMetrics(monitor).bindTo(registry);
        depths = Map.of(COUPON, 0L, INVENTORY, 4L);
        monitor.refresh().block();

        assertThat(registry.get(DeadLetterMetrics.DEAD_LETTERS).tag("queue", INVENTORY).gauge().value()).isEqualTo(4.0);
        assertThat(registry.get(DeadLetterMetrics.DEAD_LETTERS).tag("queue", COUPON).gauge().value()).isZero();
        depths = Map.of(COUPON, 0L, INVENTORY, 0L);
        assertThat(registry.get(DeadLetterMetrics.DEAD_LETTERS).tag("queue", INVENTORY).gauge().value())
                .as("a scrape does not ask the broker").isEqualTo(4.0);
    }
}
