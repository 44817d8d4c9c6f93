package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.stream.binding.BindingsLifecycleController;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;

import com.example.events.DomainEvent;
import com.example.events.OrderCreated;
import com.example.events.OrderEvent;
import com.example.messaging.relay.RelayTestApplication;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;

import reactor.core.publisher.Mono;

/**
 * Two consumers of a queue, so the broker hands the events of one order to both channels, and two lanes: the events
 * of one order still never are in two batches in flight at once. Each event's effect takes a transaction-scoped
 * advisory lock on its order without waiting ({@code pg_try_advisory_xact_lock}); it fails only while another open
 * transaction holds the same order, which is what two batches of the same order side by side would do (and did, with
 * a lane per channel).
 */
@SpringBootTest(classes = { RelayTestApplication.class, InboxLanesIntegrationTests.Handlers.class }, properties = {
        "spring.application.name=inbox-lanes-test",
        "messaging.inbox.batch.size=4",
        "messaging.inbox.batch.lanes=2",
        "spring.cloud.stream.rabbit.default.consumer.prefetch=16",
        "spring.cloud.stream.default.consumer.concurrency=2",
        "spring.cloud.stream.bindings.inbox-in-0.consumer.auto-startup=false" })
@FreshInfrastructure
class InboxLanesIntegrationTests extends ConsumerTestSupport {

    private static final String QUEUE = "order.events.inbox-lanes-test";
    private static final AtomicLong ORDERS = new AtomicLong();
    private static final int EVENTS_PER_ORDER = 4;

    /** Orders whose effect found another open transaction holding the same order. */
    static final Set<Long> OVERLAPS = ConcurrentHashMap.newKeySet();

    @Autowired
    BindingsLifecycleController bindings;

    @Override
    protected String replyExchange() {
        return OrderEvent.EXCHANGE;
    }

    @BeforeEach
    void createCounters() {
        database.execute("create table if not exists order_counters "
                + "(order_id bigint primary key, applied integer not null default 0)");
        bindings.stop(InboxBinding.NAME);
    }

    @Test
    void theEventsOfOneOrderFromTwoChannelsAreNeverInTwoBatchesAtOnce() {
        List<Long> orders = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            long orderId = ORDERS.incrementAndGet();
            database.execute("insert into order_counters (order_id) values (?)", orderId);
            orders.add(orderId);
            // One after another: the broker hands them round robin to the two consumers.
            for (int event = 0; event < EVENTS_PER_ORDER; event++) {
                broker.publish(new OrderCreated(UUID.randomUUID(), orderId, 7L, List.of(1L), null, Instant.now()));
            }
        }
        await().atMost(PATIENCE).until(() -> broker.ready(QUEUE) == orders.size() * EVENTS_PER_ORDER);
        bindings.start(InboxBinding.NAME);

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(orders).allSatisfy(orderId ->
                assertThat(database.count("select applied from order_counters where order_id = ?", orderId))
                        .as("order %d", orderId).isEqualTo(EVENTS_PER_ORDER)));
        assertThat(OVERLAPS).as("orders whose events were in two open transactions at once").isEmpty();
        assertThat(meters.get("events.batch.size").summary().max()).as("batches formed").isGreaterThan(1.0);
        awaitQueueDrained(QUEUE);
    }

    /** Counts each event of an order, after trying the order's advisory lock; waits a little to widen the window. */
    @Configuration(proxyBeanMethods = false)
    static class Handlers {

        @Bean
        EventHandler<OrderCreated> countOrders(DatabaseClient db) {
            return EventHandler.of(OrderCreated.class, order -> db
                    .sql("select pg_try_advisory_xact_lock(4242, :orderId) as held from pg_sleep(0.02)")
                    .bind("orderId", order.orderId().intValue())
                    .map(row -> Boolean.TRUE.equals(row.get("held", Boolean.class)))
                    .one()
                    .doOnNext(held -> {
                        if (!held) {
                            OVERLAPS.add(order.orderId());
                        }
                    })
                    .then(db.sql("update order_counters set applied = applied + 1 where order_id = :orderId")
                            .bind("orderId", order.orderId())
                            .fetch()
                            .rowsUpdated())
                    .then(Mono.<DomainEvent>empty()));
        }
    }
}
