package com.example.order;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.springframework.stereotype.Component;

import com.example.order.persistence.OrderRepository;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import reactor.core.publisher.Mono;

/**
 * The age of the oldest order still CREATED, for the gauge {@value #OLDEST_AGE}. The deadline sweeper refreshes
 * it at every tick, so a scrape never queries the database. Between refreshes the age keeps growing with the local
 * clock: a sweeper that cannot reach the database still shows an order that waits longer and longer.
 */
@Component
class PendingOrders {

    static final String OLDEST_AGE = "orders.oldest.pending.age";

    private final OrderRepository orders;
    private volatile Snapshot snapshot;

    PendingOrders(OrderRepository orders, MeterRegistry meters) {
        this.orders = orders;
        TimeGauge.builder(OLDEST_AGE, this, TimeUnit.MILLISECONDS, PendingOrders::oldestAgeMillis)
                .description("Age of the oldest order still CREATED (0 when there is none)")
                .register(meters);
    }

    Mono<Void> refresh() {
        return orders.oldestCreatedAge().doOnNext(age -> snapshot = new Snapshot(age, System.nanoTime())).then();
    }

    /** Zero when no order is waiting, NaN before the first refresh. */
    double oldestAgeMillis() {
        Snapshot current = snapshot;
        if (current == null) {
            return Double.NaN;
        }
        return current.oldestAge()
                .map(age -> age.plusNanos(Math.max(0, System.nanoTime() - current.takenAtNanos())).toMillis())
                .orElse(0L);
    }

    private record Snapshot(Optional<Duration> oldestAge, long takenAtNanos) {
    }
}
