package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import reactor.core.publisher.Mono;

class OutboxHealthIndicatorTests {

    private final AtomicLong nanos = new AtomicLong();
    private OutboxStore.BacklogStats stats = new OutboxStore.BacklogStats(0, 0, null);
    private final OutboxMonitor monitor = new OutboxMonitor(() -> Mono.just(stats), nanos::get);
    private final OutboxHealthIndicator health = new OutboxHealthIndicator(monitor, NotificationListener.off(),
            Duration.ofMinutes(1));

    @Test
    void unknownUntilTheBacklogWasMeasured() {
        assertThat(health.health().getStatus()).isEqualTo(Status.UNKNOWN);
        assertThat(monitor.pendingRows()).isNaN();
    }

    @Test
    void upWhileTheOldestUnsentRowIsYoungerThanTheThreshold() {
        stats = new OutboxStore.BacklogStats(3, 1, 59_000L);
        monitor.refresh().block();

        Health result = health.health();

        assertThat(result.getStatus()).isEqualTo(Status.UP);
        assertThat(result.getDetails()).containsEntry("pending_rows", 3L).containsEntry("parked_rows", 1L)
                .containsEntry("oldest_unsent_age_seconds", 59.0).containsEntry("listening", false);
    }

    @Test
    void outOfServiceOnceTheOldestUnsentRowIsOlderThanTheThreshold() {
        stats = new OutboxStore.BacklogStats(3, 0, 61_000L);
        monitor.refresh().block();

        Health result = health.health();

        assertThat(result.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(result.getDetails()).containsKey("reason");
    }

    @Test
    void theBacklogKeepsAgeingWhenTheFiguresAreNotRefreshed() {
        stats = new OutboxStore.BacklogStats(1, 0, 30_000L);
        monitor.refresh().block();
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);

        nanos.addAndGet(Duration.ofSeconds(31).toNanos());

        assertThat(health.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        assertThat(monitor.oldestUnsentAgeMillis()).isEqualTo(61_000.0);
    }

    @Test
    void anEmptyOutboxIsUpWithAgeZero() {
        stats = new OutboxStore.BacklogStats(0, 0, null);
        monitor.refresh().block();

        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        assertThat(monitor.oldestUnsentAgeMillis()).isZero();
    }
}
