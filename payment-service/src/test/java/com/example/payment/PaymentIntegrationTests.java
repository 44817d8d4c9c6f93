package com.example.payment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.EventHeaders;
import com.example.events.EventJson;
import com.example.events.OrderCancelled;
import com.example.events.OrderEvent;
import com.example.events.PaymentEvent;
import com.example.events.PaymentFailed;
import com.example.events.PaymentRefunded;
import com.example.events.PaymentRequested;
import com.example.events.PaymentSucceeded;
import com.example.payment.PaymentStateMachine.Transition;
import com.example.payment.persistence.PaymentRepository.Move;
import com.example.payment.provider.ProviderClient;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.OpenApiValidation;
import com.example.testsupport.TestEvents;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * payment-service against the real broker, database and payment simulator: what PaymentRequested and OrderCancelled
 * do, what the provider's ledger shows afterwards (one charge per order at most, whatever the faults), what is
 * announced on payment.events, and the operators' API. One application context for all of it.
 *
 * <p>The provider's timeout is short and the backoff of unknown outcomes quick, so faults resolve within seconds. The
 * worker never polls here: every payment must be taken up by a wake-up, the one after its event was applied, the one
 * timed for the end of its backoff, or the one when a payment's work ends and frees a place (it works on four at a
 * time here).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
@TestPropertySource(properties = { "payment.provider.timeout=2s", "payment.provider.connect-timeout=500ms",
        "payment.provider.retries=2", "payment.provider.retry-backoff=50ms",
        "payment.provider.retry-max-backoff=200ms", "payment.worker.backoff.initial=200ms",
        "payment.worker.backoff.max=1s", "payment.worker.stats-interval=500ms", "payment.worker.poll-interval=1h",
        "payment.worker.in-flight=4",
        "spring.cloud.stream.default.consumer.concurrency=2",
        "spring.cloud.stream.rabbit.default.consumer.prefetch=1" })
class PaymentIntegrationTests extends ConsumerTestSupport {

    private static final String QUEUE = "order.events.payment-service";
    private static final String PROBLEM = "https://example.com/problems/";
    /** Order ids of their own: the simulator's ledger is shared by every test class of the JVM. */
    private static final AtomicLong ORDERS = new AtomicLong(100_000);
    private static final long DECLINED_AMOUNT = 100_000_001;

    @DynamicPropertySource
    static void provider(DynamicPropertyRegistry registry) {
        registry.add("payment.provider.url", () -> ProviderSimulator.get().url());
        registry.add("payment.provider.api-key", () -> ProviderSimulator.API_KEY);
    }

    @LocalServerPort
    int port;

    @Autowired
    WorkerWakeUps wakeUps;

    @Autowired
    MoveRecorder recorder;

    @Autowired
    Payments paymentsApplied;

    private TransactionalOperator transactions;

    @Autowired
    void transactions(ReactiveTransactionManager transactionManager) {
        this.transactions = TransactionalOperator.create(transactionManager);
    }

    private final ProviderSimulator provider = ProviderSimulator.get();

    @Override
    protected String replyExchange() {
        return PaymentEvent.EXCHANGE;
    }

    @AfterEach
    void noFaults() {
        provider.noFaults();
    }

    @Test
    void aRequestedPaymentIsChargedOnceAtTheProviderAndAnnounced() {
        PaymentRequested requested = request(2599);

        broker.publish(requested);

        assertThat(awaitReplies(requested.orderId(), 1)).containsExactly("PaymentSucceeded");
        JsonNode charge = onlyCharge(requested.orderId());
        assertThat(charge.path("idempotency_key").asString()).isEqualTo("payment-" + requested.orderId() + "-charge");
        assertThat(charge.path("amount_cents").asLong()).isEqualTo(2599);
        assertThat(charge.path("status").asString()).isEqualTo("succeeded");
        PaymentSucceeded succeeded = reply(requested.orderId(), PaymentSucceeded.class);
        assertThat(succeeded.chargeId()).isEqualTo(charge.path("charge_id").asString());
        assertThat(succeeded.amountCents()).isEqualTo(2599);
        assertThat(payment(requested.orderId())).containsEntry("status", "SUCCEEDED")
                .containsEntry("charge_id", succeeded.chargeId()).containsEntry("amount_cents", 2599L);
        awaitHandedOff(requested.orderId(), "PaymentSucceeded");
    }

    /**
     * A payment asked for while the provider is still answering earlier ones is claimed at once, not once their calls
     * are over: its charge starts while theirs are in flight. Three in a row: two rounds at a time would hold the
     * third back until one of them ended.
     */
    @Test
    void aPaymentAskedForWhileTheProviderAnswersOthersIsClaimedAtOnce() {
        List<PaymentRequested> requests = List.of(request(1100), request(1200), request(1300));
        // Every charge waits 1.5 s at the provider before it is made: within the service's 2 s timeout.
        provider.faults(1500, 0, 0, 0);

        for (PaymentRequested requested : requests) {
            broker.publish(requested);
            await().atMost(PATIENCE).untilAsserted(() ->
                    assertThat(payment(requested.orderId())).containsEntry("status", "PROCESSING"));
        }

        assertThat(payment(requests.get(0).orderId())).as("the first charge, still waiting for the provider")
                .containsEntry("status", "PROCESSING");
        assertThat(database.replies(requests.get(0).orderId())).isEmpty();
        for (PaymentRequested requested : requests) {
            assertThat(awaitReplies(requested.orderId(), 1)).containsExactly("PaymentSucceeded");
            onlyCharge(requested.orderId());
            awaitHandedOff(requested.orderId(), "PaymentSucceeded");
        }
    }

    /**
     * With room in the worker, the transaction that records a payment also moves it to PROCESSING, leased, and its
     * charge starts once that commits: no claim moves it later (a claim's {@code updated_at} would be its own time,
     * after the insert's).
     */
    @Test
    void aPaymentAskedForWithRoomIsStartedByTheTransactionThatRecordsItNotByAClaim() {
        PaymentRequested requested = request(1050);
        provider.faults(1500, 0, 0, 0);

        broker.publish(requested);

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(database.rows("select status, attempts, "
                        + "updated_at = created_at as moved_when_recorded, next_attempt_at > now() + interval '10 s' "
                        + "as leased from payments where order_id = ?", requested.orderId()))
                .containsExactly(Map.of("status", "PROCESSING", "attempts", 1, "moved_when_recorded", true,
                        "leased", true)));
        assertThat(awaitReplies(requested.orderId(), 1)).containsExactly("PaymentSucceeded");
        onlyCharge(requested.orderId());
        await().atMost(PATIENCE).until(() -> inFlight() == 0);
    }

    /**
     * A cancel applied in the same transaction as the request (one inbox batch) fails the payment before it is moved
     * to PROCESSING: nothing is charged, and the place the request took in the worker is given back.
     */
    @Test
    void aCancelInTheTransactionThatAskedForThePaymentFailsItBeforeAnyChargeAndFreesItsPlace() {
        PaymentRequested requested = request(1060);

        List<PaymentEvent> events = transactions.execute(status -> paymentsApplied.request(requested)
                .concatWith(paymentsApplied.cancel(cancel(requested.orderId())))).collectList().block(PATIENCE);

        assertThat(events).singleElement().isInstanceOf(PaymentFailed.class);
        assertThat(payment(requested.orderId())).containsEntry("status", "FAILED")
                .containsEntry("failure_reason", Payments.CANCELLED_BEFORE_PAYMENT).containsEntry("attempts", 0);
        await().atMost(PATIENCE).until(() -> inFlight() == 0);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                .until(() -> provider.chargesWithReference("order-" + requested.orderId()).isEmpty());
    }

    /** A request whose transaction rolls back leaves no payment, and gives its place in the worker back. */
    @Test
    void aRequestWhoseTransactionRollsBackGivesItsPlaceBack() {
        PaymentRequested requested = request(1070);

        Flux<PaymentEvent> failing = transactions.execute(status -> paymentsApplied.request(requested)
                .concatWith(Mono.error(new IllegalStateException("the batch failed after the request"))));

        assertThat(failing.collectList().onErrorResume(IllegalStateException.class, e -> Mono.empty())
                .block(PATIENCE)).isNull();
        assertThat(database.count("select count(*) from payments where order_id = ?", requested.orderId()))
                .isZero();
        await().atMost(PATIENCE).until(() -> inFlight() == 0);
    }

    /**
     * The worker works on at most {@code payment.worker.in-flight} payments (4 here) at a time; those asked for beyond
     * that wait as CREATED and are claimed as soon as a payment's work ends, by that ending, not by a poll (the worker
     * never polls here).
     */
    @Test
    void paymentsBeyondTheWorkersRoomWaitAndAreClaimedWhenAPaymentsWorkEnds() {
        List<PaymentRequested> requests = IntStream.range(0, 6).mapToObj(i -> request(1400 + i)).toList();
        provider.faults(1500, 0, 0, 0);

        requests.forEach(broker::publish);

        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(inFlight()).isEqualTo(4);
            // Two, or three while a payment of an earlier test still holds a place.
            assertThat(statuses(requests).getOrDefault("CREATED", 0L)).isGreaterThanOrEqualTo(2);
        });
        // While the provider holds the four charges, the two others keep waiting, and no fifth payment is worked on.
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).untilAsserted(() -> {
            assertThat(inFlight()).isLessThanOrEqualTo(4);
            assertThat(statuses(requests).getOrDefault("CREATED", 0L)).isGreaterThanOrEqualTo(2);
        });
        for (PaymentRequested requested : requests) {
            assertThat(awaitReplies(requested.orderId(), 1)).containsExactly("PaymentSucceeded");
            onlyCharge(requested.orderId());
        }
        await().atMost(PATIENCE).until(() -> inFlight() == 0);
    }

    /** Copies race in two consumers; the relay may also publish the same request again under a new event id. */
    @Test
    void theSameRequestDeliveredFiveTimesAtOnceAndAgainUnderANewIdIsChargedOnce() {
        PaymentRequested requested = request(1500);
        double duplicatesBefore = counter("events.duplicates", requested.eventType());
        Message message = TestEvents.message(requested);

        List<CompletableFuture<Void>> publishes = IntStream.range(0, 5).mapToObj(i -> CompletableFuture.runAsync(
                () -> broker.publish(requested.exchange(), requested.eventType(), message))).toList();
        publishes.forEach(CompletableFuture::join);

        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(counter("events.duplicates", requested.eventType()) - duplicatesBefore).isEqualTo(4));
        assertThat(awaitReplies(requested.orderId(), 1)).containsExactly("PaymentSucceeded");
        PaymentRequested again = new PaymentRequested(UUID.randomUUID(), requested.orderId(), requested.userId(),
                requested.amountCents(), requested.occurredAt());
        broker.publish(again);
        awaitProcessed(again);
        assertThat(provider.chargesWithReference("order-" + requested.orderId())).hasSize(1);
        assertThat(database.replies(requested.orderId())).containsExactly("PaymentSucceeded");
        awaitQueueDrained(QUEUE);
    }

    @Test
    void aDeclinedChargeFailsThePaymentAndIsAnnounced() {
        PaymentRequested requested = request(DECLINED_AMOUNT);

        broker.publish(requested);

        assertThat(awaitReplies(requested.orderId(), 1)).containsExactly("PaymentFailed");
        assertThat(reply(requested.orderId(), PaymentFailed.class).reason()).isEqualTo("declined by the provider");
        assertThat(onlyCharge(requested.orderId()).path("status").asString()).isEqualTo("declined");
        assertThat(payment(requested.orderId())).containsEntry("status", "FAILED")
                .containsEntry("failure_reason", "declined by the provider");
    }

    /**
     * The provider charges but its answer never comes; then the look-ups fail too, so the payment stays PROCESSING
     * (nothing is charged again meanwhile, under any key); once the provider answers, the reconciler finds the
     * charge under the payment's key and records it.
     */
    @Test
    void aChargeWhoseAnswerWasLostStaysProcessingUntilTheReconcilerFindsIt() {
        PaymentRequested requested = request(3100);
        double unknownCharges = providerCalls("charge", "unknown");
        double unknownLookUps = providerCalls("find", "unknown");
        provider.faults(0, 0, 100, 0);

        broker.publish(requested);

        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50))
                .until(() -> provider.chargesWithReference("order-" + requested.orderId()).size() == 1);
        // Before the service's own timeout (2s) runs out: its look-ups now fail as well.
        provider.faults(0, 100, 0, 0);
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(providerCalls("charge", "unknown") - unknownCharges).isEqualTo(1);
            assertThat(providerCalls("find", "unknown") - unknownLookUps).isGreaterThanOrEqualTo(2);
        });
        assertThat(payment(requested.orderId())).containsEntry("status", "PROCESSING");
        assertThat(database.replies(requested.orderId())).isEmpty();

        provider.noFaults();

        assertThat(awaitReplies(requested.orderId(), 1)).containsExactly("PaymentSucceeded");
        JsonNode charge = onlyCharge(requested.orderId());
        assertThat(reply(requested.orderId(), PaymentSucceeded.class).chargeId())
                .isEqualTo(charge.path("charge_id").asString());
        assertThat(providerCalls("charge", "unknown") - unknownCharges).as("never charged again").isEqualTo(1);
    }

    @Test
    void aProviderFailingBeforeItChargesIsAskedAgainWithTheSameKeyUntilItCharges() {
        PaymentRequested requested = request(4200);
        double unknownLookUps = providerCalls("find", "unknown");
        provider.faults(0, 100, 0, 0);

        broker.publish(requested);

        await().atMost(PATIENCE).until(() -> providerCalls("find", "unknown") - unknownLookUps >= 2);
        assertThat(payment(requested.orderId())).containsEntry("status", "PROCESSING");
        assertThat(provider.chargesWithReference("order-" + requested.orderId())).isEmpty();
        provider.noFaults();

        assertThat(awaitReplies(requested.orderId(), 1)).containsExactly("PaymentSucceeded");
        assertThat(onlyCharge(requested.orderId()).path("idempotency_key").asString())
                .isEqualTo("payment-" + requested.orderId() + "-charge");
    }

    @Test
    void aCancelAfterTheChargeRefundsItOnceAndIsAnnounced() {
        PaymentRequested requested = request(5000);
        broker.publish(requested);
        awaitReplies(requested.orderId(), 1);

        broker.publish(cancel(requested.orderId()));

        assertThat(awaitReplies(requested.orderId(), 2)).containsExactly("PaymentSucceeded", "PaymentRefunded");
        PaymentRefunded refunded = reply(requested.orderId(), PaymentRefunded.class);
        String chargeId = onlyCharge(requested.orderId()).path("charge_id").asString();
        assertThat(refunded.chargeId()).isEqualTo(chargeId);
        assertThat(refunded.amountCents()).isEqualTo(5000);
        List<JsonNode> refunds = provider.refunds(chargeId);
        assertThat(refunds).hasSize(1);
        assertThat(refunds.get(0).path("refund_id").asString()).isEqualTo(refunded.refundId());
        assertThat(refunds.get(0).path("idempotency_key").asString())
                .isEqualTo("payment-" + requested.orderId() + "-refund");
        assertThat(payment(requested.orderId())).containsEntry("status", "REFUNDED")
                .containsEntry("refund_id", refunded.refundId());

        OrderCancelled again = cancel(requested.orderId());
        broker.publish(again);
        awaitProcessed(again);
        assertThat(database.replies(requested.orderId())).containsExactly("PaymentSucceeded", "PaymentRefunded");
        assertThat(provider.refunds(chargeId)).hasSize(1);
    }

    /** The cancel may overtake the request (they travel in separate messages): the late request charges nothing. */
    @Test
    void aCancelBeforeTheRequestMeansTheRequestNeverCharges() {
        long orderId = ORDERS.incrementAndGet();
        OrderCancelled cancelled = cancel(orderId);
        PaymentRequested late = new PaymentRequested(UUID.randomUUID(), orderId, 7L, 999L, Instant.now());

        broker.publish(cancelled);
        awaitProcessed(cancelled);
        assertThat(payment(orderId)).containsEntry("status", "FAILED").containsEntry("amount_cents", null)
                .containsEntry("failure_reason", "order cancelled before payment");
        broker.publish(late);
        awaitProcessed(late);

        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> provider.chargesWithReference("order-" + orderId).isEmpty());
        assertThat(payment(orderId)).containsEntry("status", "FAILED").containsEntry("amount_cents", null);
        assertThat(database.replies(orderId)).isEmpty();
    }

    /** The payment is made to wait (its first attempt due in an hour), so the cancel meets it CREATED. */
    @Test
    void aCancelOfAPaymentNotChargedYetFailsItAndIsAnnounced() {
        long orderId = ORDERS.incrementAndGet();
        database.execute("insert into payments (order_id, user_id, amount_cents, status, charge_key, next_attempt_at) "
                + "values (?, 7, 1200, 'CREATED', ?, now() + interval '1 hour')", orderId, "payment-" + orderId
                + "-charge");

        broker.publish(cancel(orderId));

        assertThat(awaitReplies(orderId, 1)).containsExactly("PaymentFailed");
        assertThat(reply(orderId, PaymentFailed.class).reason()).isEqualTo("order cancelled before payment");
        assertThat(payment(orderId)).containsEntry("status", "FAILED");
        assertThat(provider.chargesWithReference("order-" + orderId)).isEmpty();
    }

    /** Cancelled while the provider fails: nothing happens until the charge succeeds, then it is refunded. */
    @Test
    void aCancelDuringTheChargeRefundsItOnceItHasSucceeded() {
        PaymentRequested requested = request(6100);
        provider.faults(0, 100, 0, 0);
        broker.publish(requested);
        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(payment(requested.orderId())).containsEntry("status", "PROCESSING"));

        OrderCancelled cancelled = cancel(requested.orderId());
        broker.publish(cancelled);
        awaitProcessed(cancelled);
        assertThat(payment(requested.orderId())).containsEntry("status", "PROCESSING")
                .containsEntry("cancel_requested", true);
        assertThat(database.replies(requested.orderId())).isEmpty();
        provider.noFaults();

        assertThat(awaitReplies(requested.orderId(), 2)).containsExactly("PaymentSucceeded", "PaymentRefunded");
        String chargeId = onlyCharge(requested.orderId()).path("charge_id").asString();
        assertThat(provider.refunds(chargeId)).hasSize(1);
        assertThat(payment(requested.orderId())).containsEntry("status", "REFUNDED");
    }

    /** As left by an instance that crashed after committing PROCESSING, before it asked the provider. */
    @Test
    void aPaymentTheProviderNeverHeardOfIsChargedWithTheSameKeyByTheReconciler() {
        long orderId = ORDERS.incrementAndGet();
        database.execute("insert into payments (order_id, user_id, amount_cents, status, charge_key, attempts, "
                + "next_attempt_at) values (?, 7, 1800, 'PROCESSING', ?, 1, now())", orderId, "payment-" + orderId
                + "-charge");
        pollNow();

        assertThat(awaitReplies(orderId, 1)).containsExactly("PaymentSucceeded");
        assertThat(onlyCharge(orderId).path("idempotency_key").asString()).isEqualTo("payment-" + orderId + "-charge");
        assertThat(payment(orderId)).containsEntry("status", "SUCCEEDED");
    }

    /**
     * A payment past its attempts (10) is still not given up while the provider cannot say what it did; once the
     * provider says it has no charge under the key, it is.
     */
    @Test
    void aPaymentIsGivenUpOnlyOnceTheProviderSaysItNeverCharged() {
        long orderId = ORDERS.incrementAndGet();
        double unknownLookUps = providerCalls("find", "unknown");
        provider.faults(0, 100, 0, 0);
        database.execute("insert into payments (order_id, user_id, amount_cents, status, charge_key, attempts, "
                + "next_attempt_at) values (?, 7, 1900, 'PROCESSING', ?, 10, now())", orderId, "payment-" + orderId
                + "-charge");
        pollNow(); // then every attempt after a backoff is started by the wake-up timed for its end

        await().atMost(PATIENCE).until(() -> providerCalls("find", "unknown") - unknownLookUps >= 3);
        assertThat(payment(orderId)).containsEntry("status", "PROCESSING");
        assertThat((Integer) payment(orderId).get("attempts")).isGreaterThanOrEqualTo(13);
        assertThat(database.replies(orderId)).isEmpty();
        provider.noFaults();

        assertThat(awaitReplies(orderId, 1)).containsExactly("PaymentFailed");
        assertThat(reply(orderId, PaymentFailed.class).reason()).isEqualTo("provider unavailable");
        assertThat(provider.chargesWithReference("order-" + orderId)).isEmpty();
        assertThat(payment(orderId)).containsEntry("status", "FAILED");
    }

    /**
     * Outcomes that arrive while one is being recorded wait for it and are then recorded together, in one statement,
     * each payment with its own event; a payment someone else moved first stays as it is, without an event.
     */
    @Test
    void outcomesThatArriveTogetherAreRecordedTogetherEachWithItsOwnEvent() {
        List<Long> processing = IntStream.range(0, 6).mapToObj(i -> processingPayment()).toList();
        long movedBefore = processingPayment();
        database.execute("update payments set status = 'SUCCEEDED', charge_id = 'ch-before' where order_id = ?",
                movedBefore);
        double statementsBefore = perStatement().count();
        double transitionsBefore = perStatement().totalAmount();

        List<Long> moved = Flux.fromIterable(processing).concatWith(Mono.just(movedBefore))
                .flatMap(orderId -> recorder.record(charged(orderId, "ch-" + orderId)))
                .map(Payment::orderId)
                .collectList()
                .block(PATIENCE);

        assertThat(moved).containsExactlyInAnyOrderElementsOf(processing);
        assertThat(processing).allSatisfy(orderId -> {
            assertThat(payment(orderId)).containsEntry("status", "SUCCEEDED").containsEntry("charge_id", "ch-" + orderId)
                    .containsEntry("attempts", 0);
            assertThat(database.replies(orderId)).containsExactly("PaymentSucceeded");
            assertThat(reply(orderId, PaymentSucceeded.class).chargeId()).isEqualTo("ch-" + orderId);
        });
        assertThat(payment(movedBefore)).containsEntry("charge_id", "ch-before");
        assertThat(database.replies(movedBefore)).isEmpty();
        assertThat(perStatement().totalAmount() - transitionsBefore).as("transitions recorded").isEqualTo(7);
        assertThat(perStatement().count() - statementsBefore).as("statements that recorded them")
                .isBetween(2.0, 6.0);
    }

    /**
     * A transition the database refuses (a charge without its charge id) fails its batch's statement; the batch's
     * transitions are then recorded one at a time, so that only that one fails.
     */
    @Test
    void aTransitionThatCannotBeRecordedFailsAloneAndTheRestOfItsBatchIsRecorded() {
        long first = processingPayment();
        long refused = processingPayment();
        long last = processingPayment();
        double statementsBefore = perStatement().count();
        double transitionsBefore = perStatement().totalAmount();

        // The event has the charge id; the transition leaves it out, and the payment cannot be SUCCEEDED without it.
        Move withoutChargeId = new Move(refused, Transition.CHARGED, null, null, null,
                new PaymentSucceeded(UUID.randomUUID(), refused, 1200L, "ch-refused", Instant.now()));

        List<String> outcomes = Flux.just(charged(first, "ch-first"), withoutChargeId, charged(last, "ch-last"))
                .flatMapSequential(move -> recorder.record(move)
                        .map(payment -> payment.orderId() + " " + payment.status())
                        .onErrorResume(failure -> Mono.just(move.orderId() + " failed: " + failure.getMessage())))
                .collectList()
                .block(PATIENCE);

        assertThat(outcomes).hasSize(3);
        assertThat(outcomes.get(0)).isEqualTo(first + " SUCCEEDED");
        assertThat(outcomes.get(1)).startsWith(refused + " failed: ").contains("payments_charged_have_charge_id");
        assertThat(outcomes.get(2)).isEqualTo(last + " SUCCEEDED");
        assertThat(payment(refused)).containsEntry("status", "PROCESSING");
        assertThat(database.replies(refused)).isEmpty();
        assertThat(database.replies(last)).containsExactly("PaymentSucceeded");
        // The first alone; the other two together, refused, then each alone: 5 transitions in 4 statements.
        assertThat(perStatement().totalAmount() - transitionsBefore).isEqualTo(5);
        assertThat(perStatement().count() - statementsBefore).isEqualTo(4);
    }

    /** A PROCESSING payment the worker leaves alone for an hour; its order id. */
    private long processingPayment() {
        long orderId = ORDERS.incrementAndGet();
        database.execute("insert into payments (order_id, user_id, amount_cents, status, charge_key, next_attempt_at) "
                + "values (?, 7, 1200, 'PROCESSING', ?, now() + interval '1 hour')", orderId,
                "payment-" + orderId + "-charge");
        return orderId;
    }

    private static Move charged(long orderId, String chargeId) {
        return new Move(orderId, Transition.CHARGED, chargeId, null, null,
                new PaymentSucceeded(UUID.randomUUID(), orderId, 1200L, chargeId, Instant.now()));
    }

    private DistributionSummary perStatement() {
        return meters.get(MoveRecorder.PER_STATEMENT).summary();
    }

    /** A request the contract forbids (amount 0: order-service needs no payment then) is poison, not a payment. */
    @Test
    void aRequestThatBreaksTheContractGoesToTheDeadLetterQueueAndTheNextIsCharged() {
        PaymentRequested spoiled = request(700);
        PaymentRequested next = request(800);
        Message good = TestEvents.message(spoiled);
        ObjectNode body = (ObjectNode) EventJson.mapper().readTree(good.getBody());
        body.put("amount_cents", 0);

        broker.publish(spoiled.exchange(), spoiled.eventType(), MessageBuilder
                .withBody(body.toString().getBytes(StandardCharsets.UTF_8))
                .copyProperties(good.getMessageProperties()).build());
        broker.publish(next);

        Message dead = await().atMost(PATIENCE)
                .until(() -> broker.receive(QUEUE + ".dlq", Duration.ofMillis(500)), message -> message != null);
        assertThat(dead.getMessageProperties().getMessageId()).isEqualTo(spoiled.eventId().toString());
        assertThat((String) dead.getMessageProperties().getHeader(EventHeaders.POISON_REASON))
                .contains("'amount_cents' must be > 0");
        assertThat(awaitReplies(next.orderId(), 1)).containsExactly("PaymentSucceeded");
        assertThat(database.rows("select 1 from payments where order_id = ?", spoiled.orderId())).isEmpty();
        assertThat(provider.chargesWithReference("order-" + spoiled.orderId())).isEmpty();
    }

    @Test
    void theQueueIsADurableQuorumQueueWithADeadLetterQueueAndThePaymentExchangeExists() {
        assertThat(broker.hasDurableExchange(OrderEvent.EXCHANGE, "topic")).isTrue();
        assertThat(broker.hasDurableExchange(PaymentEvent.EXCHANGE, "topic")).isTrue();
        assertThat(broker.queueArguments(QUEUE).path("x-queue-type").asString()).isEqualTo("quorum");
        assertThat(broker.queueArguments(QUEUE).path("x-delivery-limit").asInt()).isPositive();
        assertThat(broker.queueArguments(QUEUE + ".dlq").path("x-queue-type").asString()).isEqualTo("quorum");
        assertThat(broker.bindings(QUEUE)).extracting(binding -> binding.routingKey())
                .contains("PaymentRequested", "OrderCancelled").doesNotContain("OrderCreated");
    }

    @Test
    void paymentsByStatusAndTheOldestProcessingAgeAreMetrics() {
        PaymentRequested requested = request(900);
        broker.publish(requested);
        awaitReplies(requested.orderId(), 1);

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(meters.get("payments").tag("status", "SUCCEEDED")
                .gauge().value()).isGreaterThanOrEqualTo(1));
        assertThat(meters.get("payments.oldest.processing.age").timeGauge()).isNotNull();
    }

    @Test
    void aPaymentIsA404ProblemUntilAskedForThenShowsWhereItStands() {
        PaymentRequested requested = request(2500);
        WebTestClient client = OpenApiValidation.client(port);
        client.get().uri("/payments/{id}", requested.orderId()).exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo(PROBLEM + "not-found")
                .jsonPath("$.detail").isEqualTo("order " + requested.orderId() + " has no payment")
                .jsonPath("$.retryable").isEqualTo(false);

        broker.publish(requested);
        awaitReplies(requested.orderId(), 1);
        broker.publish(cancel(requested.orderId()));
        awaitReplies(requested.orderId(), 2);

        PaymentRefunded refunded = reply(requested.orderId(), PaymentRefunded.class);
        client.get().uri("/payments/{id}", requested.orderId()).exchange()
                .expectStatus().isOk()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody()
                .jsonPath("$.order_id").isEqualTo(requested.orderId())
                .jsonPath("$.status").isEqualTo("REFUNDED")
                .jsonPath("$.amount_cents").isEqualTo(2500)
                .jsonPath("$.charge_id").isEqualTo(refunded.chargeId())
                .jsonPath("$.refund_id").isEqualTo(refunded.refundId())
                .jsonPath("$.updated_at").isNotEmpty();
    }

    @Test
    void aPaymentCancelledBeforeItWasAskedForHasNoAmount() {
        long orderId = ORDERS.incrementAndGet();
        OrderCancelled cancelled = cancel(orderId);
        broker.publish(cancelled);
        awaitProcessed(cancelled);

        OpenApiValidation.client(port).get().uri("/payments/{id}", orderId).exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.status").isEqualTo("FAILED")
                .jsonPath("$.amount_cents").isEmpty()
                .jsonPath("$.charge_id").isEmpty();
    }

    /** The copy in docs/openapi/, from which clients are generated, is the description the service serves. */
    @Test
    void theDescriptionPublishedInTheRepositoryIsTheOneServed() throws IOException {
        OpenApiValidation.assertPublished(port, Path.of("../docs/openapi/payment-service.json"));
    }

    private static PaymentRequested request(long amountCents) {
        long orderId = ORDERS.incrementAndGet();
        return new PaymentRequested(UUID.randomUUID(), orderId, 5000 + orderId, amountCents, Instant.now());
    }

    private static OrderCancelled cancel(long orderId) {
        return new OrderCancelled(UUID.randomUUID(), orderId, "risk rejected", Instant.now());
    }

    /** What the worker's poll does in production (it never polls here): a row no event announced is found. */
    private void pollNow() {
        wakeUps.wake();
    }

    private void awaitProcessed(OrderEvent event) {
        await().atMost(PATIENCE).until(() -> database.count(
                "select count(*) from processed_events where event_id = ?", event.eventId()) == 1);
    }

    /** How many of these payments are in each status. */
    private Map<String, Long> statuses(List<PaymentRequested> requests) {
        return requests.stream().map(requested -> (String) payment(requested.orderId()).get("status"))
                .collect(Collectors.groupingBy(status -> status, Collectors.counting()));
    }

    private double inFlight() {
        return meters.get(PaymentWorker.IN_FLIGHT).gauge().value();
    }

    /**
     * The payment's event of that type was published by the hand-off, right after the statement that wrote it: sent
     * while its row was still leased ({@code messaging.relay.hand-off.lease}, 15 s), which the relay's sweep waits out.
     */
    private void awaitHandedOff(long orderId, String eventType) {
        await().atMost(Duration.ofSeconds(10)).until(() -> database.count("select count(*) from outbox_events "
                + "where aggregate_id = ? and event_type = ? and sent_at is not null and next_attempt_at > now()",
                Long.toString(orderId), eventType) == 1);
    }

    private Map<String, Object> payment(long orderId) {
        List<Map<String, Object>> rows = database.rows("select status, amount_cents, charge_id, refund_id, "
                + "cancel_requested, failure_reason, attempts from payments where order_id = ?", orderId);
        assertThat(rows).as("payment of order %d", orderId).hasSize(1);
        return rows.get(0);
    }

    /** The order's only charge in the provider's ledger. */
    private JsonNode onlyCharge(long orderId) {
        List<JsonNode> charges = provider.chargesWithReference("order-" + orderId);
        assertThat(charges).as("charges of order %d", orderId).hasSize(1);
        return charges.get(0);
    }

    private double providerCalls(String operation, String outcome) {
        return meters.find(ProviderClient.REQUESTS).tag("operation", operation).tag("outcome", outcome).counters()
                .stream().mapToDouble(Counter::count).sum();
    }
}
