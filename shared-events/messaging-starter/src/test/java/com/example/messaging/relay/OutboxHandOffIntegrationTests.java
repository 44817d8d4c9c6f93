package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.DomainEvent;
import com.example.events.OrderEvent;
import com.example.messaging.outbox.OutboundEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.testsupport.FreshInfrastructure;

import io.r2dbc.spi.ConnectionFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The hand-off: a writer publishes its rows after its own commit, and the sweep stays the fallback. The sweep polls
 * every 200 ms here, so a row would leave through it as soon as its lease allowed; what leaves before the lease ran
 * out left through the hand-off.
 */
@SpringBootTest(properties = { "messaging.relay.hand-off.enabled=true", "messaging.relay.poll-interval=200ms" })
@FreshInfrastructure
class OutboxHandOffIntegrationTests {

    /** An aggregate the statement does not insert: the caller's step that names the row the event is about. */
    private static final String SOURCE = "source as (select :orderId::bigint as id)";

    @Autowired
    OutboxWriter writer;

    @Autowired
    OutboxHandOff handOff;

    @Autowired
    OutboxRelay relay;

    @Autowired
    ConnectionFactory connectionFactory;

    @Autowired
    AmqpAdmin admin;

    @Autowired
    RabbitTemplate rabbit;

    TransactionalOperator transactions;

    DatabaseClient db;

    TestOutbox outbox;

    @BeforeEach
    void setUp() {
        transactions = TransactionalOperator.create(new R2dbcTransactionManager(connectionFactory));
        db = DatabaseClient.create(connectionFactory);
        outbox = new TestOutbox(writer, transactions, db);
    }

    @Test
    void rowsHandedOffAfterTheirCommitLeaveOnceEachBeforeTheirLeaseRunsOut() {
        assertThat(handOff.isOn()).isTrue();
        assertThat(handOff.lease()).isEqualTo(Duration.ofSeconds(15));
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            List<DomainEvent> events = Flux.range(1, 200)
                    .flatMap(i -> {
                        DomainEvent event = TestOutbox.created(0);
                        return write(event, 1_000_000L + i, handOff.lease()).doOnSuccess(
                                written -> handOff.offer(List.of(event.eventId()))).thenReturn(event);
                    }, 16)
                    .collectList().block();

            Set<String> ids = events.stream().map(e -> e.eventId().toString()).collect(Collectors.toSet());
            await().atMost(Duration.ofSeconds(20)).until(() -> probe.drain().size() >= ids.size());
            String these = ids.stream().map(id -> "'" + id + "'").collect(Collectors.joining(",", "id in (", ")"));
            assertThat(outbox.count(these + " and sent_at is not null")).isEqualTo(ids.size());
            // Still leased: the sweep could not have claimed one of them.
            assertThat(outbox.count(these + " and next_attempt_at <= now()")).isZero();
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                    .until(() -> probe.drain().size() == ids.size());
            assertThat(probe.messageIds()).containsExactlyInAnyOrderElementsOf(ids);
        }
    }

    @Test
    void aRowWhoseWriterNeverHandedItOffIsPublishedByTheSweepWhenItsLeaseRunsOut() {
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            DomainEvent event = TestOutbox.created(0);
            // The writer "died" after its commit: nothing is offered, and nobody was notified.
            write(event, 2_000_001L, Duration.ofSeconds(2)).block();

            await().during(Duration.ofMillis(1200)).atMost(Duration.ofMillis(1500)).until(() -> probe.drain().isEmpty());
            await().atMost(Duration.ofSeconds(10)).until(() -> probe.drain().size() == 1);
            assertThat(probe.messageIds()).containsExactly(event.eventId().toString());
            await().atMost(Duration.ofSeconds(5)).until(() -> outbox.count("sent_at is null") == 0);
        }
    }

    @Test
    void aRowHandedOffBehindAnEarlierUnsentRowOfItsAggregateLeavesAfterIt() {
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            long order = 3_000_001L;
            DomainEvent first = TestOutbox.created(0);
            DomainEvent second = TestOutbox.cancelled(0, 2);
            // The first is nobody's to hand off and waits for its lease; the second is handed off at once.
            write(first, order, Duration.ofSeconds(2)).block();
            write(second, order, handOff.lease()).block();
            handOff.offer(List.of(second.eventId()));

            await().during(Duration.ofMillis(1200)).atMost(Duration.ofMillis(1500)).until(() -> probe.drain().isEmpty());
            await().atMost(Duration.ofSeconds(10)).until(() -> probe.drain().size() == 2);
            assertThat(probe.messageIds()).containsExactly(first.eventId().toString(), second.eventId().toString());
            await().atMost(Duration.ofSeconds(5)).until(() -> outbox.count("sent_at is null") == 0);
        }
    }

    /** Why the hand-off reads its rows after the writer's commit, not in its statement: see {@link OutboxHandOff}. */
    @Test
    void aRowWhoseStatementWaitedForAnEarlierWriterOfItsAggregateLeavesAfterThatWritersRow() throws Exception {
        outbox.execute("create table if not exists aggregates (id bigint primary key, version int not null)");
        long order = 7_000_001L;
        outbox.execute("insert into aggregates (id, version) values (" + order + ", 0)");
        DomainEvent first = TestOutbox.created(0);
        DomainEvent second = TestOutbox.cancelled(0, 2);
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            // The earlier writer locks the aggregate and writes its row, which nobody offers (it waits for its lease),
            // then commits only once the later writer's statement waits for the lock.
            Sinks.Empty<Void> written = Sinks.empty();
            Sinks.Empty<Void> commit = Sinks.empty();
            CompletableFuture<Long> earlier = transactions.transactional(
                    writeLocking(first, order, Duration.ofSeconds(4))
                            .doOnSuccess(seen -> written.tryEmitEmpty())
                            .flatMap(seen -> commit.asMono().thenReturn(seen)))
                    .toFuture();
            written.asMono().block(Duration.ofSeconds(10));
            CompletableFuture<Long> later = writeLocking(second, order, handOff.lease()).toFuture();
            await().atMost(Duration.ofSeconds(10)).until(() -> waitingForALock() == 1);
            commit.tryEmitEmpty();
            earlier.get(10, TimeUnit.SECONDS);
            assertThat(later.get(10, TimeUnit.SECONDS))
                    .as("unsent rows of the aggregate the later writer's statement saw")
                    .isZero();
            handOff.offer(List.of(second.eventId()));

            // The first leaves through the sweep when its lease ends; the second, given back to the sweep, after it.
            await().atMost(Duration.ofSeconds(10)).until(() -> probe.drain().size() == 2);
            assertThat(probe.messageIds()).containsExactly(first.eventId().toString(), second.eventId().toString());
        }
    }

    @Test
    void offeringAnIdTwiceOrAfterItWasSentPublishesItOnce() {
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            DomainEvent event = TestOutbox.created(0);
            write(event, 4_000_001L, handOff.lease()).block();
            handOff.offer(List.of(event.eventId(), event.eventId()));
            await().atMost(Duration.ofSeconds(10)).until(() -> outbox.count("sent_at is null") == 0);
            handOff.offer(List.of(event.eventId(), UUID.randomUUID()));

            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> probe.drain().size() == 1);
            assertThat(probe.messageIds()).containsExactly(event.eventId().toString());
        }
    }

    @Test
    void rowsOfferedOnceTheRelayHasStoppedAreGivenBackToTheSweepAtOnce() {
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            DomainEvent event = TestOutbox.created(0);
            relay.stop();
            try {
                write(event, 5_000_001L, handOff.lease()).block();
                handOff.offer(List.of(event.eventId()));
                await().atMost(Duration.ofSeconds(5))
                        .until(() -> outbox.count("id = '" + event.eventId() + "' and next_attempt_at <= now()") == 1);
                assertThat(probe.drain()).isEmpty();
            } finally {
                relay.start();
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> probe.drain().size() == 1);
            assertThat(probe.messageIds()).containsExactly(event.eventId().toString());
        }
    }

    /**
     * A process that handed rows off and stopped before sending them leaves them leased; a relay that starts (the
     * restarted process, or another instance) ends those leases at once. A row that waits after a failed attempt keeps
     * its backoff.
     */
    @Test
    void aRelayThatStartsSendsRowsHandedOffBeforeItWithoutWaitingForTheirLease() {
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            DomainEvent handedOff = TestOutbox.created(0);
            DomainEvent backingOff = TestOutbox.created(0);
            relay.stop();
            try {
                write(handedOff, 6_000_001L, Duration.ofMinutes(10)).block();
                write(backingOff, 6_000_002L, Duration.ofMinutes(10)).block();
                db.sql("update outbox_events set attempts = 1, last_error = 'refused' where id = :id")
                        .bind("id", backingOff.eventId()).fetch().rowsUpdated().block();
            } finally {
                relay.start();
            }

            await().atMost(Duration.ofSeconds(5)).until(() -> probe.drain().size() == 1);
            assertThat(probe.messageIds()).containsExactly(handedOff.eventId().toString());
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> probe.drain().size() == 1);
            assertThat(outbox.count("id = '" + backingOff.eventId() + "' and sent_at is null")).isOne();

            db.sql("update outbox_events set next_attempt_at = now() where id = :id")
                    .bind("id", backingOff.eventId()).fetch().rowsUpdated().block();
            await().atMost(Duration.ofSeconds(10)).until(() -> outbox.count("sent_at is null") == 0);
        }
    }

    /**
     * One statement that moves an aggregate (a row of {@code aggregates}, locked by the update) and writes its event,
     * as an order's state machine does; answers how many unsent rows of the aggregate the statement saw.
     */
    private Mono<Long> writeLocking(DomainEvent event, long orderId, Duration lease) {
        return writer.appendWith("""
                source as (
                    update aggregates a set version = a.version + 1
                     where a.id = :orderId
                    returning a.id, (select count(*)
                                       from outbox_events o
                                      where o.aggregate_id = a.id::text
                                        and o.sent_at is null) as unsent_seen)""",
                "source", "id", "order_id", OutboundEvent.of(event), lease)
                .bind("orderId", orderId)
                .map(row -> row.get("unsent_seen", Long.class))
                .one();
    }

    private long waitingForALock() {
        return db.sql("""
                select count(*) from pg_stat_activity
                 where wait_event_type = 'Lock' and datname = current_database()""")
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }

    /** One statement in auto-commit, as order-service places an order: the row commits with it. */
    private Mono<Void> write(DomainEvent event, long orderId, Duration lease) {
        return writer.appendWith(SOURCE, "source", "id", "order_id", OutboundEvent.of(event), lease)
                .bind("orderId", orderId)
                .fetch().all().then();
    }
}
