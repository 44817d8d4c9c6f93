package com.example.messaging.relay;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;

/**
 * The relay's meters. Gauges read the backlog figures {@link OutboxMonitor} refreshes in the
 * background, so a scrape never queries the database.
 */
final class RelayMetrics {

    static final String PUBLISHED = "outbox.relay.published";
    static final String RETRIED = "outbox.relay.retried";
    static final String PARKED = "outbox.relay.parked";
    static final String PUBLISH_LATENCY = "outbox.relay.publish.latency";
    static final String PENDING_ROWS = "outbox.pending";
    static final String PARKED_ROWS = "outbox.parked";
    static final String OLDEST_UNSENT_AGE = "outbox.oldest.unsent.age";

    private final Counter published;
    private final Counter retried;
    private final Counter parked;
    private final Timer publishLatency;

    RelayMetrics(MeterRegistry registry, OutboxMonitor monitor) {
        published = Counter.builder(PUBLISHED).description("Outbox events confirmed by the broker and marked sent")
                .register(registry);
        retried = Counter.builder(RETRIED)
                .description("Failed deliveries of outbox events that will be retried (nack, return, timeout, broker down)")
                .register(registry);
        parked = Counter.builder(PARKED).description("Outbox events parked after too many refused deliveries")
                .register(registry);
        publishLatency = Timer.builder(PUBLISH_LATENCY)
                .description("From the outbox row's creation (its transaction) to the broker's confirm")
                .publishPercentileHistogram()
                .register(registry);
        Gauge.builder(PENDING_ROWS, monitor, OutboxMonitor::pendingRows)
                .description("Unsent outbox rows that are not parked").register(registry);
        Gauge.builder(PARKED_ROWS, monitor, OutboxMonitor::parkedRows)
                .description("Parked outbox rows waiting for an operator").register(registry);
        TimeGauge.builder(OLDEST_UNSENT_AGE, monitor, TimeUnit.MILLISECONDS, OutboxMonitor::oldestUnsentAgeMillis)
                .description("Age of the oldest unsent outbox row that is not parked (0 when there is none)")
                .register(registry);
    }

    void published(Delivery delivery) {
        published.increment();
        Duration latency = Duration.between(delivery.row().createdAt(), delivery.confirmedAt());
        publishLatency.record(latency.isNegative() ? Duration.ZERO : latency);
    }

    void retried(int count) {
        retried.increment(count);
    }

    void parked(int count) {
        parked.increment(count);
    }
}
