package com.example.order;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** Counts the orders that become final, whatever made them so: a reply or the deadline. */
@Component
class FinalOrders {

    private final MeterRegistry meters;
    private final Timer timeToFinal;
    private final Map<OrderStatus, Counter> finalized = new ConcurrentHashMap<>();

    FinalOrders(MeterRegistry meters) {
        this.meters = meters;
        this.timeToFinal = Timer.builder("orders.time_to_final")
                .description("Time from an order's creation to CONFIRMED or REJECTED")
                .publishPercentileHistogram()
                .register(meters);
    }

    void reached(Order order, OrderStatus status) {
        // Once per order: the counter is looked up once per status, not built and registered per call.
        finalized.computeIfAbsent(status, s -> Counter.builder("orders.finalized")
                .description("Orders that reached a final status").tag("status", s.name()).register(meters))
                .increment();
        timeToFinal.record(Duration.between(order.createdAt(), Instant.now()));
    }
}
