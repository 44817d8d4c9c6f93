package com.example.messaging.inbox;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counters of what the inbox did with each message, tagged by event type. Each is described once and looked up in the
 * registry by its tags when counted (Micrometer's {@link Meter.MeterProvider}), not built again per message.
 */
final class InboxMetrics {

    private final Meter.MeterProvider<Counter> processed;
    private final Meter.MeterProvider<Counter> duplicates;
    private final Meter.MeterProvider<Counter> poison;
    private final Meter.MeterProvider<Counter> retries;
    private final DistributionSummary batches;

    InboxMetrics(MeterRegistry registry) {
        this.processed = Counter.builder("events.processed")
                .description("Events acknowledged by the inbox, by outcome: applied, duplicate or ignored")
                .withRegistry(registry);
        this.duplicates = Counter.builder("events.duplicates")
                .description("Events delivered again after they had been applied, acknowledged without effect")
                .withRegistry(registry);
        this.poison = Counter.builder("events.poison")
                .description("Messages sent to the dead-letter queue because they can never be applied")
                .withRegistry(registry);
        this.retries = Counter.builder("events.retries")
                .description("Inbox transactions retried after a transient (infrastructure) failure")
                .withRegistry(registry);
        this.batches = DistributionSummary.builder("events.batch.size")
                .description("Deliveries per batch the inbox received (batch consumption only)")
                .register(registry);
    }

    void batch(int deliveries) {
        batches.record(deliveries);
    }

    void applied(String eventType) {
        processed(eventType, "applied");
    }

    void duplicate(String eventType) {
        processed(eventType, "duplicate");
        duplicates.withTag("event_type", eventType).increment();
    }

    void ignored(String eventType) {
        processed(eventType, "ignored");
    }

    void poison(String eventType) {
        poison.withTag("event_type", eventType).increment();
    }

    void retried(String eventType) {
        retries.withTag("event_type", eventType).increment();
    }

    private void processed(String eventType, String outcome) {
        processed.withTags("event_type", eventType, "outcome", outcome).increment();
    }
}
