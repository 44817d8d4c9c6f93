package com.example.messaging.deadletter;

import java.util.Map;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * {@code deadLetters} health: {@value #WARNING_CODE} while any dead-letter queue of this service holds a message,
 * with each queue's depth. Messages there wait for an operator (inspect, fix the cause, re-drive); nothing
 * else moves them. The service itself is fine, so the status is neither DOWN nor part of readiness or liveness:
 * it belongs to the {@code messaging} group, which maps it to 503 for alerting; the overall health, which does
 * not order this status, ignores it. Figures come from {@link DeadLetterMonitor}; a check never asks the broker.
 */
final class DeadLetterHealthIndicator implements HealthIndicator {

    static final String WARNING_CODE = "WARNING";
    static final Status WARNING = new Status(WARNING_CODE, "messages wait in a dead-letter queue");

    private final DeadLetterMonitor monitor;

    DeadLetterHealthIndicator(DeadLetterMonitor monitor) {
        this.monitor = monitor;
    }

    @Override
    public Health health() {
        if (monitor.queues().isEmpty()) {
            return Health.up().withDetail("queues", Map.of()).build();
        }
        Map<String, Long> figures = monitor.figures().orElse(null);
        if (figures == null) {
            Health.Builder unknown = Health.unknown().withDetail("reason", "dead-letter queues not measured yet");
            monitor.lastFailure().ifPresent(failure -> unknown.withDetail("last_failure", failure));
            return unknown.build();
        }
        long messages = figures.values().stream().mapToLong(Long::longValue).sum();
        Health.Builder health = messages > 0 ? Health.status(WARNING).withDetail("reason", messages
                + " message(s) wait in dead-letter queues: inspect them, fix the cause, then "
                + "POST /admin/dead-letters/{queue}/redrive") : Health.up();
        health.withDetail("queues", figures)
                .withDetail("messages", messages)
                .withDetail("figures_age_seconds", monitor.figuresAge().orElseThrow().toMillis() / 1000.0);
        monitor.lastFailure().ifPresent(failure -> health.withDetail("last_failure", failure));
        return health.build();
    }
}
