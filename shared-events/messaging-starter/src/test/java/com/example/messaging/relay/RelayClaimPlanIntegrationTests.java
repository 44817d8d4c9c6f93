package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.testsupport.FreshInfrastructure;

import io.r2dbc.spi.ConnectionFactory;

/**
 * A sudden backlog (what a broker outage leaves) meets statistics from before it: the table analysed while it
 * held a little sent history and nothing unsent. Claiming a batch must still take the aggregate index, not
 * scan the whole backlog once per candidate row (which took two seconds per batch of 200 at 20,000 rows).
 */
@SpringBootTest
@FreshInfrastructure
class RelayClaimPlanIntegrationTests {

    private static final int BACKLOG = 20_000;

    @Autowired
    OutboxRelay relay;

    @Autowired
    ConnectionFactory connectionFactory;

    @Test
    void claimsABatchOfASuddenBacklogQuicklyOnStatisticsFromBeforeIt() {
        relay.stop();
        DatabaseClient db = DatabaseClient.create(connectionFactory);
        execute(db, """
                insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload, sent_at)
                select gen_random_uuid(), 'order', i::text, 'OrderCreated', 'order.events', '{}'::jsonb, now()
                  from generate_series(1, 2000) i""");
        execute(db, "analyze outbox_events");
        // Autovacuum would refresh the statistics at some point; the relay must not depend on when.
        execute(db, "alter table outbox_events set (autovacuum_enabled = false)");
        execute(db, """
                insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload)
                select gen_random_uuid(), 'order', (100000 + i)::text, 'OrderCreated', 'order.events', '{}'::jsonb
                  from generate_series(1, %d) i""".formatted(BACKLOG));
        // A second event of some orders waits behind their first.
        execute(db, """
                insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload)
                select gen_random_uuid(), 'order', (100000 + i)::text, 'OrderCancelled', 'order.events', '{}'::jsonb
                  from generate_series(1, %d, 2) i""".formatted(BACKLOG));
        OutboxStore store = new OutboxStore(db);
        TransactionalOperator transaction = TransactionalOperator.create(new R2dbcTransactionManager(connectionFactory));

        long started = System.nanoTime();
        var batch = transaction.transactional(store.claim(200).collectList()).block();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(batch).hasSize(200).allSatisfy(row -> assertThat(row.eventType()).isEqualTo("OrderCreated"));
        // Only the rows with an OrderCancelled behind them (odd orders) make more rows due once they are sent.
        assertThat(batch).allSatisfy(row -> assertThat(row.hasLater())
                .as("order %s has a later unsent event", row.aggregateId())
                .isEqualTo((Long.parseLong(row.aggregateId()) - 100000) % 2 == 1));
        assertThat(took).as("one claim of a %d-row backlog on stale statistics", BACKLOG)
                .isLessThan(Duration.ofMillis(500));
    }

    private static void execute(DatabaseClient db, String sql) {
        db.sql(sql).fetch().rowsUpdated().block();
    }
}
