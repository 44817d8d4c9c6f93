package com.example.paymentsimulator.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;

import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.OpenApiValidation;
import com.example.testsupport.ServiceDatabase;

import reactor.core.publisher.Flux;
import reactor.netty.http.client.HttpClient;

/** The provider's API and its test-control endpoints, over HTTP, against a real PostgreSQL. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "simulator.api-key=" + PaymentSimulatorApiIntegrationTests.API_KEY, "simulator.hold-after-charge=2s" })
@FreshInfrastructure
class PaymentSimulatorApiIntegrationTests {

    static final String API_KEY = "sk_test_4f1e0c2b9a";
    private static final String PROBLEM = "https://example.com/problems/";
    private static final Duration HOLD = Duration.ofSeconds(2);
    private static final ParameterizedTypeReference<Map<String, Object>> JSON_OBJECT =
            new ParameterizedTypeReference<>() {
            };

    @LocalServerPort
    int port;

    @Value("${test.database.jdbc-url}")
    String jdbcUrl;

    @Value("${test.database.user}")
    String user;

    @Value("${test.database.password}")
    String password;

    WebTestClient client;
    ServiceDatabase ledger;

    @BeforeEach
    void setUp() {
        client = OpenApiValidation.client(port, API_KEY);
        ledger = new ServiceDatabase(jdbcUrl, user, password);
    }

    @AfterEach
    void faultsOff() {
        setFaults("{}");
    }

    @Test
    void aChargeIsMadeOnceAndTheSameRequestAgainGetsTheSameCharge() {
        String key = UUID.randomUUID().toString();
        Map<String, Object> made = charge(key, 2599, "payment-1").expectStatus().isCreated()
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectHeader().doesNotExist(ChargeController.REPLAYED)
                .expectBody(JSON_OBJECT).returnResult().getResponseBody();
        String chargeId = (String) made.get("charge_id");
        assertThat(chargeId).startsWith("ch_");
        assertThat(made).containsEntry("status", "succeeded").containsEntry("amount_cents", 2599)
                .containsEntry("reference", "payment-1").hasSize(4);

        charge(key, 2599, "payment-1").expectStatus().isOk()
                .expectHeader().valueEquals(ChargeController.REPLAYED, "true")
                .expectBody(JSON_OBJECT).isEqualTo(made);
        client.get().uri("/charges/" + chargeId).exchange().expectStatus().isOk().expectBody(JSON_OBJECT)
                .isEqualTo(made);
        client.get().uri("/charges?idempotency_key=" + key).exchange().expectStatus().isOk().expectBody(JSON_OBJECT)
                .isEqualTo(made);
        assertThat(ledger.count("select count(*) from charges where idempotency_key = ?", key)).isEqualTo(1);
    }

    /** The IETF draft's form of the header, a structured-field string, names the same key as the bare form. */
    @Test
    void aQuotedKeyIsTheSameKey() {
        String key = UUID.randomUUID().toString();
        String chargeId = chargeId(charge(key, 100, "quoted").expectStatus().isCreated());

        assertThat(chargeId(charge("\"" + key + "\"", 100, "quoted").expectStatus().isOk())).isEqualTo(chargeId);
    }

    @Test
    void identicalConcurrentRequestsMakeOneCharge() {
        String key = UUID.randomUUID().toString();
        WebClient plain = WebClient.builder().baseUrl("http://localhost:" + port)
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + API_KEY).build();

        List<ResponseEntity<Map<String, Object>>> answers = Flux.range(0, 8)
                .flatMap(i -> plain.post().uri("/charges").header("Idempotency-Key", key)
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(Map.of("amount_cents", 500, "reference", "concurrent"))
                        .retrieve().toEntity(JSON_OBJECT), 8)
                .collectList().block(Duration.ofSeconds(30));

        assertThat(answers).hasSize(8);
        assertThat(answers).filteredOn(answer -> answer.getStatusCode().value() == 201).hasSize(1);
        assertThat(answers).filteredOn(answer -> answer.getStatusCode().value() == 200).hasSize(7);
        assertThat(answers).extracting(answer -> answer.getBody().get("charge_id")).containsOnly(
                answers.get(0).getBody().get("charge_id"));
        assertThat(ledger.count("select count(*) from charges where idempotency_key = ?", key)).isEqualTo(1);
    }

    @Test
    void theSameKeyWithAnotherBodyIsRefused() {
        String key = UUID.randomUUID().toString();
        String chargeId = chargeId(charge(key, 700, "first").expectStatus().isCreated());

        for (Map<String, Object> other : List.of(Map.<String, Object>of("amount_cents", 701, "reference", "first"),
                Map.<String, Object>of("amount_cents", 700, "reference", "second"))) {
            client.post().uri("/charges").header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(other).exchange()
                    .expectStatus().isEqualTo(422)
                    .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .expectBody()
                    .jsonPath("$.type").isEqualTo(PROBLEM + "idempotency-key-reused")
                    .jsonPath("$.retryable").isEqualTo(false)
                    .jsonPath("$.detail").value(detail -> assertThat((String) detail).contains(chargeId));
        }
        assertThat(ledger.count("select count(*) from charges where idempotency_key = ?", key)).isEqualTo(1);
    }

    @Test
    void aChargeWithoutAnIdempotencyKeyIsRefused() {
        client.post().uri("/charges").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("amount_cents", 100, "reference", "no key")).exchange()
                .expectStatus().isBadRequest()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo(PROBLEM + "validation-failed")
                .jsonPath("$.errors[0].field").isEqualTo("Idempotency-Key")
                .jsonPath("$.errors[0].message").isEqualTo("is required");
        charge("", 100, "empty key").expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("Idempotency-Key");
        client.get().uri("/charges").exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("idempotency_key");
        assertThat(ledger.count("select count(*) from charges where reference in ('no key', 'empty key')"))
                .isZero();
    }

    @Test
    void anInvalidBodyIsRefusedWithItsFieldErrors() {
        client.post().uri("/charges").header("Idempotency-Key", UUID.randomUUID().toString())
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("amount_cents", 0, "reference", ""))
                .exchange()
                .expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.type").isEqualTo(PROBLEM + "validation-failed")
                .jsonPath("$.errors.length()").isEqualTo(2)
                .jsonPath("$.errors[?(@.field == 'amount_cents')].message")
                .isEqualTo("must be greater than or equal to 1")
                .jsonPath("$.errors[?(@.field == 'reference')].message").isEqualTo("size must be between 1 and 200");
        client.post().uri("/charges").header("Idempotency-Key", UUID.randomUUID().toString())
                .contentType(MediaType.APPLICATION_JSON).bodyValue(Map.of("amount_cents", 1_000_000_000_001L))
                .exchange()
                .expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.errors[?(@.field == 'amount_cents')].message")
                .isEqualTo("must be less than or equal to 1000000000000")
                .jsonPath("$.errors[?(@.field == 'reference')].message").isEqualTo("must not be null");
        client.post().uri("/charges").header("Idempotency-Key", UUID.randomUUID().toString())
                .contentType(MediaType.APPLICATION_JSON).bodyValue("{\"amount_cents\": \"12\", \"reference\": \"x\"}")
                .exchange()
                .expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("amount_cents");
        assertThat(ledger.count("select count(*) from charges where reference = 'x'")).isZero();
    }

    @Test
    void theProviderApiWantsTheSimulatorsOwnKey() {
        WebTestClient anonymous = OpenApiValidation.client(port, null);
        WebTestClient wrongKey = OpenApiValidation.client(port, API_KEY + "x");
        String key = UUID.randomUUID().toString();

        anonymous.post().uri("/charges").header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("amount_cents", 100, "reference", "no api key")).exchange()
                .expectStatus().isUnauthorized()
                .expectHeader().valueEquals(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo(PROBLEM + "unauthorized")
                .jsonPath("$.retryable").isEqualTo(false);
        wrongKey.post().uri("/charges").header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("amount_cents", 100, "reference", "no api key")).exchange()
                .expectStatus().isUnauthorized()
                .expectHeader().value(HttpHeaders.WWW_AUTHENTICATE,
                        value -> assertThat(value).startsWith("Bearer error=\"invalid_token\""));
        // A JWT of our services is no key here either.
        OpenApiValidation.client(port).get().uri("/charges?idempotency_key=" + key).exchange()
                .expectStatus().isUnauthorized();
        for (WebTestClient caller : List.of(anonymous, wrongKey)) {
            caller.get().uri("/charges/ch_1").exchange().expectStatus().isUnauthorized();
            caller.post().uri("/charges/ch_1/refunds").header("Idempotency-Key", key).exchange()
                    .expectStatus().isUnauthorized();
            caller.get().uri("/ledger").exchange().expectStatus().isOk();
            caller.get().uri("/faults").exchange().expectStatus().isOk();
            caller.get().uri("/livez").exchange().expectStatus().isOk();
            caller.get().uri("/readyz").exchange().expectStatus().isOk();
            caller.get().uri(OpenApiValidation.API_DOCS).exchange().expectStatus().isOk();
        }
        assertThat(ledger.count("select count(*) from charges where idempotency_key = ?", key)).isZero();
    }

    @Test
    void aLookupFindsOnlyWhatWasMade() {
        client.get().uri("/charges?idempotency_key=" + UUID.randomUUID()).exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.type").isEqualTo(PROBLEM + "not-found");
        client.get().uri("/charges/ch_does_not_exist").exchange()
                .expectStatus().isNotFound()
                .expectBody().jsonPath("$.detail").isEqualTo("charge ch_does_not_exist does not exist");
    }

    @Test
    void aChargeIsRefundedOnceAndWhole() {
        String chargeId = chargeId(charge(UUID.randomUUID().toString(), 4200, "to refund").expectStatus().isCreated());
        String refundKey = UUID.randomUUID().toString();

        Map<String, Object> refund = refund(chargeId, refundKey).expectStatus().isCreated()
                .expectHeader().doesNotExist(ChargeController.REPLAYED)
                .expectBody(JSON_OBJECT).returnResult().getResponseBody();
        assertThat((String) refund.get("refund_id")).startsWith("re_");
        assertThat(refund).containsEntry("charge_id", chargeId).containsEntry("amount_cents", 4200).hasSize(3);

        refund(chargeId, refundKey).expectStatus().isOk()
                .expectHeader().valueEquals(ChargeController.REPLAYED, "true")
                .expectBody(JSON_OBJECT).isEqualTo(refund);
        refund(chargeId, UUID.randomUUID().toString()).expectStatus().isEqualTo(409)
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().jsonPath("$.type").isEqualTo(PROBLEM + "already-refunded");
        String otherCharge = chargeId(charge(UUID.randomUUID().toString(), 100, "other").expectStatus().isCreated());
        refund(otherCharge, refundKey).expectStatus().isEqualTo(422)
                .expectBody().jsonPath("$.type").isEqualTo(PROBLEM + "idempotency-key-reused");
        refund("ch_does_not_exist", UUID.randomUUID().toString()).expectStatus().isNotFound()
                .expectBody().jsonPath("$.type").isEqualTo(PROBLEM + "not-found");
        client.post().uri("/charges/" + chargeId + "/refunds").exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.errors[0].field").isEqualTo("Idempotency-Key");

        assertThat(ledger.count("select count(*) from refunds where charge_id = ?", chargeId)).isEqualTo(1);
        assertThat(ledger.count("select count(*) from refunds where charge_id = ?", otherCharge)).isZero();
    }

    @Test
    void chargesAboveTheLimitAreDeclinedAndADeclinedChargeCannotBeRefunded() {
        String key = UUID.randomUUID().toString();
        Map<String, Object> declined = charge(key, 100_000_001, "too much").expectStatus().isCreated()
                .expectBody(JSON_OBJECT).returnResult().getResponseBody();
        assertThat(declined).containsEntry("status", "declined");
        charge(UUID.randomUUID().toString(), 100_000_000, "just enough").expectStatus().isCreated()
                .expectBody().jsonPath("$.status").isEqualTo("succeeded");

        refund((String) declined.get("charge_id"), UUID.randomUUID().toString()).expectStatus().isEqualTo(409)
                .expectBody().jsonPath("$.type").isEqualTo(PROBLEM + "charge-declined");
        assertThat(ledger.count("select count(*) from refunds where charge_id = ?", declined.get("charge_id")))
                .isZero();
    }

    /** A charge's status is decided when it is made: a replay after the fault is gone is still declined. */
    @Test
    void declinePercentDeclinesNewChargesAndTheDecisionIsKept() {
        setFaults("{\"decline_percent\": 100}");
        String key = UUID.randomUUID().toString();
        charge(key, 100, "unlucky").expectStatus().isCreated().expectBody().jsonPath("$.status").isEqualTo("declined");

        setFaults("{}");
        charge(key, 100, "unlucky").expectStatus().isOk().expectBody().jsonPath("$.status").isEqualTo("declined");
        charge(UUID.randomUUID().toString(), 100, "lucky").expectStatus().isCreated()
                .expectBody().jsonPath("$.status").isEqualTo("succeeded");
    }

    @Test
    void anInjectedErrorHappensBeforeAnythingIsDone() {
        setFaults("{\"error_before_percent\": 100}");
        String key = UUID.randomUUID().toString();
        String chargeId = chargeIdWithoutFaults();
        long errorsBefore = injected("errors");
        setFaults("{\"error_before_percent\": 100}");

        charge(key, 100, "failed").expectStatus().isEqualTo(503)
                .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.type").isEqualTo(PROBLEM + "injected-failure")
                .jsonPath("$.retryable").isEqualTo(true);
        refund(chargeId, UUID.randomUUID().toString()).expectStatus().isEqualTo(503);
        client.get().uri("/charges/" + chargeId).exchange().expectStatus().isEqualTo(503);

        setFaults("{}");
        assertThat(injected("errors") - errorsBefore).as("503s counted in GET /faults").isEqualTo(3);
        assertThat(ledger.count("select count(*) from charges where idempotency_key = ?", key)).isZero();
        assertThat(ledger.count("select count(*) from refunds where charge_id = ?", chargeId)).isZero();
        client.get().uri("/charges?idempotency_key=" + key).exchange().expectStatus().isNotFound();
    }

    @Test
    void latencyDelaysTheProviderApiOnly() {
        setFaults("{\"latency_ms\": 400}");

        long started = System.nanoTime();
        charge(UUID.randomUUID().toString(), 100, "slow").expectStatus().isCreated();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        client.get().uri("/faults").exchange().expectStatus().isOk()
                .expectBody().json("{\"latency_ms\": 400, \"error_before_percent\": 0, "
                        + "\"timeout_after_charge_percent\": 0, \"decline_percent\": 0}")
                .jsonPath("$.injected.errors").isNumber()
                .jsonPath("$.injected.withheld_answers").isNumber()
                .jsonPath("$.injected.declines").isNumber();
    }

    @Test
    void faultsOutsideTheirRangesAreRefused() {
        client.put().uri("/faults").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"latency_ms\": 60001, \"decline_percent\": 101, \"error_before_percent\": -1}")
                .exchange()
                .expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.errors.length()").isEqualTo(3)
                .jsonPath("$.errors[?(@.field == 'latency_ms')].message")
                .isEqualTo("must be less than or equal to 60000");
        client.get().uri("/faults").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.latency_ms").isEqualTo(0);
    }

    /**
     * The unknown outcome: the charge is made, and the caller hears nothing. A caller with a short timeout gives up;
     * one that waits longer than the hold sees the connection closed without an answer. Either way the ledger and a
     * lookup by key show the charge, and a retry with the same key is a replay.
     */
    @Test
    void aWithheldAnswerLeavesTheChargeMade() {
        long withheldBefore = injected("withheld_answers");
        setFaults("{\"timeout_after_charge_percent\": 100}");
        String impatient = UUID.randomUUID().toString();
        String patient = UUID.randomUUID().toString();

        assertThatThrownBy(() -> rawCharge(Duration.ofMillis(500), impatient))
                .hasStackTraceContaining("ReadTimeoutException");
        long started = System.nanoTime();
        assertThatThrownBy(() -> rawCharge(Duration.ofSeconds(20), patient))
                .hasStackTraceContaining("Connection prematurely closed BEFORE response");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(HOLD);

        setFaults("{}");
        assertThat(injected("withheld_answers") - withheldBefore).as("withheld answers counted in GET /faults")
                .isEqualTo(2);
        for (String key : List.of(impatient, patient)) {
            String chargeId = chargeId(client.get().uri("/charges?idempotency_key=" + key).exchange()
                    .expectStatus().isOk());
            assertThat(chargeId(charge(key, 1234, "unknown outcome").expectStatus().isOk())).isEqualTo(chargeId);
            client.get().uri("/ledger").exchange().expectStatus().isOk()
                    .expectBody().jsonPath("$.charges[?(@.idempotency_key == '" + key + "')].charge_id")
                    .isEqualTo(chargeId);
        }
    }

    @Test
    void aWithheldRefundIsMadeToo() {
        String chargeId = chargeIdWithoutFaults();
        String key = UUID.randomUUID().toString();
        setFaults("{\"timeout_after_charge_percent\": 100}");

        WebClient impatient = rawClient(Duration.ofMillis(500));
        assertThatThrownBy(() -> impatient.post().uri("/charges/" + chargeId + "/refunds")
                .header("Idempotency-Key", key).retrieve().toBodilessEntity().block(Duration.ofSeconds(10)))
                .hasStackTraceContaining("ReadTimeoutException");

        setFaults("{}");
        assertThat(ledger.count("select count(*) from refunds where charge_id = ? and idempotency_key = ?", chargeId,
                key)).isEqualTo(1);
        refund(chargeId, key).expectStatus().isOk();
    }

    @Test
    void theLedgerListsEverythingWithKeysAndTimes() {
        String chargeKey = UUID.randomUUID().toString();
        String refundKey = UUID.randomUUID().toString();
        String chargeId = chargeId(charge(chargeKey, 3100, "in the ledger").expectStatus().isCreated());
        refund(chargeId, refundKey).expectStatus().isCreated();

        OpenApiValidation.client(port, null).get().uri("/ledger").exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.charges[?(@.charge_id == '" + chargeId + "')].idempotency_key").isEqualTo(chargeKey)
                .jsonPath("$.charges[?(@.charge_id == '" + chargeId + "')].status").isEqualTo("succeeded")
                .jsonPath("$.charges[?(@.charge_id == '" + chargeId + "')].reference").isEqualTo("in the ledger")
                .jsonPath("$.charges[?(@.charge_id == '" + chargeId + "')].created_at").exists()
                .jsonPath("$.refunds[?(@.charge_id == '" + chargeId + "')].idempotency_key").isEqualTo(refundKey)
                .jsonPath("$.refunds[?(@.charge_id == '" + chargeId + "')].amount_cents").isEqualTo(3100);
    }

    /** The copy in docs/openapi/, from which clients are generated, is the description the simulator serves. */
    @Test
    void theDescriptionPublishedInTheRepositoryIsTheOneServed() throws IOException {
        OpenApiValidation.assertPublished(port, Path.of("../docs/openapi/payment-simulator.json"));
    }

    private WebTestClient.ResponseSpec charge(String key, long amountCents, String reference) {
        return client.post().uri("/charges").header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("amount_cents", amountCents, "reference", reference)).exchange();
    }

    private WebTestClient.ResponseSpec refund(String chargeId, String key) {
        return client.post().uri("/charges/" + chargeId + "/refunds").header("Idempotency-Key", key).exchange();
    }

    private String chargeIdWithoutFaults() {
        setFaults("{}");
        return chargeId(charge(UUID.randomUUID().toString(), 100, "made").expectStatus().isCreated());
    }

    private static String chargeId(WebTestClient.ResponseSpec response) {
        return (String) response.expectBody(JSON_OBJECT).returnResult().getResponseBody().get("charge_id");
    }

    /** A counter of {@code GET /faults}' {@code injected}: faults dealt since the simulator started. */
    private long injected(String counter) {
        Map<?, ?> faults = client.get().uri("/faults").exchange().expectStatus().isOk().expectBody(JSON_OBJECT)
                .returnResult().getResponseBody();
        return ((Number) ((Map<?, ?>) faults.get("injected")).get(counter)).longValue();
    }

    private void setFaults(String json) {
        client.put().uri("/faults").contentType(MediaType.APPLICATION_JSON).bodyValue(json).exchange()
                .expectStatus().isOk();
    }

    /** A charge from a plain client that gives up after {@code timeout}, as payment-service's would. */
    private void rawCharge(Duration timeout, String key) {
        rawClient(timeout).post().uri("/charges").header("Idempotency-Key", key)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("amount_cents", 1234, "reference", "unknown outcome"))
                .retrieve().toBodilessEntity().block(Duration.ofSeconds(30));
    }

    private WebClient rawClient(Duration timeout) {
        return WebClient.builder().baseUrl("http://localhost:" + port)
                .clientConnector(new ReactorClientHttpConnector(HttpClient.create().responseTimeout(timeout)))
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + API_KEY).build();
    }
}
