package com.example.messaging.relay;

import java.time.Duration;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code outbox} health: OUT_OF_SERVICE while an unsent row (not parked) is older than
 * {@code messaging.relay.health.max-unsent-age}. It belongs in the {@code messaging} group, for alerting: a
 * backlog does not stop the service from taking requests (they wait in the outbox), so it is not part of
 * readiness, and restarting the process would not drain it faster, so it is not part of liveness.
 */
final class OutboxHealthIndicator implements HealthIndicator {

    private final OutboxMonitor monitor;
    private final NotificationListener listener;
    private final Duration maxUnsentAge;

    OutboxHealthIndicator(OutboxMonitor monitor, NotificationListener listener, Duration maxUnsentAge) {
        this.monitor = monitor;
        this.listener = listener;
        this.maxUnsentAge = maxUnsentAge;
    }

    @Override
    public Health health() {
        if (!monitor.hasFigures()) {
            return Health.unknown().withDetail("reason", "backlog not measured yet").build();
        }
        Duration oldest = monitor.oldestUnsentAge().orElse(Duration.ZERO);
        Health.Builder health = oldest.compareTo(maxUnsentAge) > 0 ? Health.outOfService() : Health.up();
        health.withDetail("pending_rows", (long) monitor.pendingRows())
                .withDetail("parked_rows", (long) monitor.parkedRows())
                .withDetail("oldest_unsent_age_seconds", oldest.toMillis() / 1000.0)
                .withDetail("max_unsent_age_seconds", maxUnsentAge.toMillis() / 1000.0)
                .withDetail("figures_age_seconds", monitor.figuresAge().orElse(Duration.ZERO).toMillis() / 1000.0)
                .withDetail("listening", listener.isListening());
        if (oldest.compareTo(maxUnsentAge) > 0) {
            health.withDetail("reason", "the oldest unsent outbox row waits longer than " + maxUnsentAge
                    + ": the broker may be unreachable or the relay too slow");
        }
        return health.build();
    }
}
