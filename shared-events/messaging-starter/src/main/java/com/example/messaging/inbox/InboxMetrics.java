package com.example.messaging.inbox;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;

/** Counters of what the inbox did with each message, tagged by event type. */
final class InboxMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> processed = new ConcurrentHashMap<>();
    private final DistributionSummary batches;

    InboxMetrics(MeterRegistry registry) {
        this.registry = registry;
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
        Counter.builder("events.duplicates")
                .description("Events delivered again after they had been applied, acknowledged without effect")
                .tag("event_type", eventType)
                .register(registry)
                .increment();
    }

    void ignored(String eventType) {
        processed(eventType, "ignored");
    }

    void poison(String eventType) {
        Counter.builder("events.poison")
                .description("Messages sent to the dead-letter queue because they can never be applied")
                .tag("event_type", eventType)
                .register(registry)
                .increment();
    }

    void retried(String eventType) {
        Counter.builder("events.retries")
                .description("Inbox transactions retried after a transient (infrastructure) failure")
                .tag("event_type", eventType)
                .register(registry)
                .increment();
    }

    private void processed(String eventType, String outcome) {
        // Once per event: the counter is looked up once per (type, outcome), not built and registered per call.
        processed.computeIfAbsent(eventType + '/' + outcome, key -> Counter.builder("events.processed")
                        .description("Events acknowledged by the inbox, by outcome: applied, duplicate or ignored")
                        .tag("event_type", eventType)
                        .tag("outcome", outcome)
                        .register(registry))
                .increment();
    }
}
