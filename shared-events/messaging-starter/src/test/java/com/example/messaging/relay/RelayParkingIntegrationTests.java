package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.CouponEvent;
import com.example.events.DomainEvent;
import com.example.events.OrderEvent;
import com.example.events.RiskEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.TestTokens;

import io.micrometer.core.instrument.MeterRegistry;
import io.r2dbc.spi.ConnectionFactory;

/**
 * Messages the broker keeps refusing: an unroutable event (acked, but returned) is never marked
 * sent, is parked once the broker has refused it for the park budget while accepting other events,
 * holds back its aggregate's later events, makes the messaging health group report the backlog (readiness
 * stays up), and is published once an operator requeues it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "messaging.relay.park-after=2s",
        "messaging.relay.backoff.max=500ms",
        "messaging.relay.poll-interval=100ms",
        "messaging.relay.stats-interval=200ms",
        "messaging.relay.health.max-unsent-age=2s" })
@FreshInfrastructure
class RelayParkingIntegrationTests {

    @Autowired
    OutboxWriter writer;

    @Autowired
    ConnectionFactory connectionFactory;

    @Autowired
    AmqpAdmin admin;

    @Autowired
    RabbitTemplate rabbit;

    @Autowired
    MeterRegistry meters;

    @LocalServerPort
    int port;

    TestOutbox outbox;
    WebTestClient http;
    final List<QueueProbe> probes = new ArrayList<>();

    @BeforeEach
    void setUp() {
        outbox = new TestOutbox(writer, TransactionalOperator.create(new R2dbcTransactionManager(connectionFactory)),
                DatabaseClient.create(connectionFactory));
        http = WebTestClient.bindToServer().baseUrl("http://localhost:" + port)
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + TestTokens.admin()).build();
    }

    /** Each test publishes to an exchange of its own and leaves no queue behind that could route another's events. */
    @AfterEach
    void deleteProbes() {
        probes.forEach(QueueProbe::close);
    }

    private QueueProbe probe(String exchange, String routingKey) {
        QueueProbe probe = QueueProbe.bind(admin, rabbit, exchange, routingKey);
        probes.add(probe);
        return probe;
    }

    @Test
    void anUnroutableEventIsParkedOnceRefusedForTheBudgetWhileOthersAreAcceptedAndPublishedOnceRequeued() {
        double parkedBefore = meters.counter(RelayMetrics.PARKED).count();
        double retriedBefore = meters.counter(RelayMetrics.RETRIED).count();
        DomainEvent event = TestOutbox.riskApproved(1);
        String id = event.eventId().toString();
        outbox.write(event);

        // Refused for longer than the budget, but the broker took nothing else meanwhile: a broker that refuses
        // everything (definitions lost, topology not provisioned yet) is no reason to blame one event.
        await().atMost(Duration.ofSeconds(20)).until(() -> outbox.count("id = '" + id
                + "' and attempts >= 3 and refused_since < now() - interval '3 seconds'") == 1);
        assertThat(isParked(id)).isFalse();

        QueueProbe accepting = probe(OrderEvent.EXCHANGE, "OrderCancelled");
        DomainEvent accepted = TestOutbox.cancelled(2, 1);
        outbox.write(accepted);
        await().atMost(Duration.ofSeconds(20)).until(() -> isParked(id));
        assertThat(accepting.messageIds()).contains(accepted.eventId().toString());
        assertThat(outbox.count("id = '" + id + "' and sent_at is null and last_error like '%NO_ROUTE%'")).isEqualTo(1);
        long attempts = outbox.attempts(id);
        assertThat(meters.counter(RelayMetrics.PARKED).count() - parkedBefore).isEqualTo(1);
        assertThat(meters.counter(RelayMetrics.RETRIED).count() - retriedBefore).isEqualTo(attempts - 1);
        http.get().uri("/admin/outbox/parked").exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$[?(@.id == '%s')].attempts".formatted(id)).isEqualTo(List.of((int) attempts))
                .jsonPath("$[?(@.id == '%s')].event_type".formatted(id)).isEqualTo(List.of("RiskApproved"))
                .jsonPath("$[?(@.id == '%s')].parked_at".formatted(id)).isNotEmpty();

        QueueProbe probe = probe(RiskEvent.EXCHANGE, "#");
        http.post().uri("/admin/outbox/parked/{id}/requeue", id).exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.requeued").isEqualTo(1);

        await().atMost(Duration.ofSeconds(10)).until(() -> probe.messageIds().contains(id));
        await().atMost(Duration.ofSeconds(10)).until(() -> outbox.count("id = '" + id + "' and sent_at is not null") == 1);
        assertThat(outbox.count("id = '" + id + "' and parked_at is null and refused_since is null")).isEqualTo(1);
    }

    @Test
    void requeueingAnEventThatIsNotParkedIsNotFound() {
        http.post().uri("/admin/outbox/parked/{id}/requeue", "5b6f0f8e-8a53-4c6e-9a34-2d1b3c9e7f10").exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo("https://example.com/problems/not-found")
                .jsonPath("$.status").isEqualTo(404)
                .jsonPath("$.retryable").isEqualTo(false);
        http.post().uri("/admin/outbox/parked/{id}/requeue", "not-a-uuid").exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.type").isEqualTo("https://example.com/problems/validation-failed");
    }

    @Test
    void theListRefusesALimitOutsideItsRangeAndLivesUnderAdminOnly() {
        http.get().uri("/admin/outbox/parked?limit=1001").exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("limit");
        http.get().uri("/admin/outbox/parked?limit=many").exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("limit");
        http.get().uri("/admin/outbox/parked?limit=1").exchange().expectStatus().isOk();
        http.get().uri("/outbox/parked").exchange().expectStatus().isNotFound();
    }

    @Test
    void aParkedEventHoldsBackItsAggregateAndTheMessagingGroupReportsTheBacklogUntilRequeued() {
        QueueProbe probe = probe(OrderEvent.EXCHANGE, "OrderCancelled");
        DomainEvent unroutable = TestOutbox.created(7);
        DomainEvent heldBack = TestOutbox.cancelled(7, 1);
        DomainEvent otherAggregate = TestOutbox.cancelled(8, 1);
        outbox.write(unroutable);
        outbox.write(heldBack);
        outbox.write(otherAggregate);

        await().atMost(Duration.ofSeconds(20)).until(() -> isParked(unroutable.eventId().toString()));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> probe.messageIds().contains(otherAggregate.eventId().toString()));
        await().atMost(Duration.ofSeconds(10)).until(() -> status("/actuator/health/messaging") == 503);
        http.get().uri("/actuator/health/messaging").exchange()
                .expectBody()
                .jsonPath("$.status").isEqualTo("OUT_OF_SERVICE")
                .jsonPath("$.components.outbox.status").isEqualTo("OUT_OF_SERVICE");
        // A backlog does not stop the service from taking requests, and a restart would not drain it.
        http.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
        http.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
        // Routable, due and waiting for seconds, yet never published: an earlier event of its order is unsent.
        assertThat(probe.messageIds()).doesNotContain(heldBack.eventId().toString());
        assertThat(outbox.count("id = '" + heldBack.eventId() + "' and sent_at is null and attempts = 0")).isEqualTo(1);

        probe.alsoBind("OrderCreated");
        http.post().uri("/admin/outbox/parked/requeue").exchange()
                .expectStatus().isOk()
                .expectBody().jsonPath("$.requeued").isEqualTo(1);

        await().atMost(Duration.ofSeconds(10)).until(() -> probe.messageIds().size() == 3);
        assertThat(probe.messageIds()).containsExactly(otherAggregate.eventId().toString(),
                unroutable.eventId().toString(), heldBack.eventId().toString());
        await().atMost(Duration.ofSeconds(10)).until(() -> status("/actuator/health/messaging") == 200);
    }

    @Test
    void anExchangeDeletedUnderTheRelayIsDeclaredAgain() {
        QueueProbe probe = probe(CouponEvent.EXCHANGE, "#");
        DomainEvent first = TestOutbox.couponNotNeeded(20);
        outbox.write(first);
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.messageIds().contains(first.eventId().toString()));

        admin.deleteExchange(CouponEvent.EXCHANGE);
        DomainEvent second = TestOutbox.couponNotNeeded(21);
        String id = second.eventId().toString();
        outbox.write(second);

        // The first attempt hits the missing exchange; the relay declares it again, and with no queue
        // bound any more (the bindings went with the exchange) the later attempts are returned. Parked once the
        // budget is spent and the broker has accepted another event meanwhile.
        await().atMost(Duration.ofSeconds(20)).until(() -> outbox.count("id = '" + id + "' and attempts >= 1") == 1);
        QueueProbe accepting = probe(OrderEvent.EXCHANGE, "OrderCancelled");
        DomainEvent accepted = TestOutbox.cancelled(22, 1);
        outbox.write(accepted);
        await().atMost(Duration.ofSeconds(20)).until(() -> isParked(id));
        assertThat(accepting.messageIds()).contains(accepted.eventId().toString());
        assertThat(outbox.count("id = '" + id + "' and sent_at is null and last_error like '%NO_ROUTE%'")).isEqualTo(1);
        probe.alsoBind("#");
        http.post().uri("/admin/outbox/parked/{id}/requeue", id).exchange().expectStatus().isOk();
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.messageIds().contains(id));
    }

    private int status(String path) {
        return http.get().uri(path).exchange().returnResult(String.class).getStatus().value();
    }

    private boolean isParked(String id) {
        return outbox.count("id = '" + id + "' and parked_at is not null") == 1;
    }
}
