package com.example.order;

import java.time.Duration;
import java.time.Instant;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** Counts the orders that become final, whatever made them so: a reply or the deadline. */
@Component
class FinalOrders {

    private final Timer timeToFinal;
    private final Meter.MeterProvider<Counter> finalized;

    FinalOrders(MeterRegistry meters) {
        this.finalized = Counter.builder("orders.finalized").description("Orders that reached a final status")
                .withRegistry(meters);
        this.timeToFinal = Timer.builder("orders.time_to_final")
                .description("Time from an order's creation to CONFIRMED or REJECTED")
                .publishPercentileHistogram()
                .register(meters);
    }

    void reached(Order order, OrderStatus status) {
        finalized.withTag("status", status.name()).increment();
        timeToFinal.record(Duration.between(order.createdAt(), Instant.now()));
    }
}
