package com.example.messaging.deadletter;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * One gauge per dead-letter queue of this service ({@value #DEAD_LETTERS}, tagged {@code queue}): the messages
 * in it at the last refresh of {@link DeadLetterMonitor}, so a scrape never asks the broker. NaN before the first
 * refresh.
 */
final class DeadLetterMetrics implements MeterBinder {

    static final String DEAD_LETTERS = "messaging.dead.letters";

    private final DeadLetterMonitor monitor;

    DeadLetterMetrics(DeadLetterMonitor monitor) {
        this.monitor = monitor;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (String queue : monitor.queues()) {
            Gauge.builder(DEAD_LETTERS, monitor, watched -> watched.messages(queue))
                    .description("Messages waiting in a dead-letter queue of this service for an operator")
                    .tag("queue", queue)
                    .register(registry);
        }
    }
}
