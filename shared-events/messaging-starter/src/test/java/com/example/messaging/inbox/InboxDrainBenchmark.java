package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.cloud.stream.binding.BindingsLifecycleController;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;

import com.example.events.OrderCreated;
import com.example.events.OrderEvent;
import com.example.events.RiskApproved;
import com.example.testsupport.ConsumerTestSupport;

import reactor.core.publisher.Mono;

/**
 * Benchmark, not a test of speed: how fast one consumer instance (two consumers, prefetch 16) drains a backlog of
 * {@value #EVENTS} events that waited in its queue, as after an outage, with the inbox settings of the subclass. Each
 * event updates a row and writes one reply to the outbox, which the relay publishes, as inventory-service does. Prints
 * the rate, this JVM's CPU per event and the database transactions per event. Excluded from the default build (tag
 * "benchmark"); run both with
 *
 * <pre>
 * ./mvnw -B verify -pl shared-events/messaging-starter -Dgroups=benchmark -Dit.test='InboxDrain*' \
 *     -Dtest=None -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@Tag("benchmark")
abstract class InboxDrainBenchmark extends ConsumerTestSupport {

    static final String QUEUE_PREFIX = "order.events.";
    static final int EVENTS = 5_000;

    @Autowired
    BindingsLifecycleController bindings;

    @Value("${spring.application.name}")
    String application;

    @Value("${messaging.inbox.batch.size}")
    int batchSize;

    @Override
    protected String replyExchange() {
        return "risk.events";
    }

    @Test
    void drainABacklog() {
        String queue = QUEUE_PREFIX + application;
        database.execute("create table if not exists order_counters "
                + "(order_id bigint primary key, applied integer not null default 0)");
        database.execute("insert into order_counters (order_id) select g from generate_series(1, ?) g", EVENTS);
        bindings.stop(InboxBinding.NAME);
        for (long orderId = 1; orderId <= EVENTS; orderId++) {
            broker.publish(new OrderCreated(UUID.randomUUID(), orderId, 7L, List.of(1L), null, Instant.now()));
        }
        await().atMost(Duration.ofMinutes(2)).until(() -> broker.ready(queue) == EVENTS);
        long transactionsBefore = transactions();
        long cpuBefore = cpuNanos();
        long start = System.nanoTime();

        bindings.start(InboxBinding.NAME);
        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> database.count("select count(*) from processed_events") == EVENTS);
        long elapsed = System.nanoTime() - start;
        long cpu = cpuNanos() - cpuBefore;
        long transactions = transactions() - transactionsBefore;

        System.out.printf("inbox drain (batch size %d): %.0f events/s, %.2f ms of this JVM's CPU per event, "
                + "%.2f database transactions per event%n", batchSize, EVENTS / (elapsed / 1e9), cpu / 1e6 / EVENTS,
                (double) transactions / EVENTS);
        assertThat(database.count("select count(*) from order_counters where applied <> 1")).isZero();
    }

    private long transactions() {
        return database.count("select xact_commit + xact_rollback from pg_stat_database "
                + "where datname = current_database()");
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** A consumer like inventory-service: one row updated, one reply written to the outbox. */
    @Configuration(proxyBeanMethods = false)
    static class Handlers {

        @Bean
        EventHandler<OrderCreated> countAndReply(DatabaseClient db) {
            return EventHandler.of(OrderCreated.class, order -> db
                    .sql("update order_counters set applied = applied + 1 where order_id = :orderId")
                    .bind("orderId", order.orderId())
                    .then()
                    .then(Mono.just(new RiskApproved(UUID.randomUUID(), order.orderId(), Instant.now()))));
        }
    }
}
