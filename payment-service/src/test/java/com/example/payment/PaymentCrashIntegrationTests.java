package com.example.payment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import com.example.events.PaymentRequested;
import com.example.service.faults.CrashPoints;
import com.example.testsupport.BrokerClient;
import com.example.testsupport.ServiceDatabase;
import com.example.testsupport.TestInfrastructure;

import tools.jackson.databind.JsonNode;

/**
 * The two windows around the call to the provider, with payment-service running as a real process that halts at a
 * crash point and is started again. Each crash is first proven to have happened where it should (exit code 86, and
 * what the provider's ledger and the payment show at that moment); in the end the service has made exactly one charge
 * at the provider and published one PaymentSucceeded.
 */
class PaymentCrashIntegrationTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /** Order ids of their own: the simulator's ledger is shared by every test class of the JVM. */
    private static final AtomicLong ORDERS = new AtomicLong(900_000);

    private final TestInfrastructure infrastructure = TestInfrastructure.get();
    private final ProviderSimulator provider = ProviderSimulator.get();

    /**
     * One payment through both windows, one instance after the other: the first halts before it asks the provider;
     * the second finds the payment PROCESSING, learns that the provider never charged it, charges it under the same
     * key and halts before recording the charge; the third finds the charge under the key and records it.
     */
    @Test
    void crashesBeforeAndAfterTheChargeEndWithOneChargeUnderThePaymentsKeyAndOneAnnouncement() {
        String databaseName = infrastructure.createDatabase("it_payment_crashes");
        Map<String, Object> properties = PaymentServiceProcess.properties(databaseName, "it-payment-crashes");
        ServiceDatabase database = ServiceDatabase.on(infrastructure.postgres(), databaseName);
        PaymentRequested requested = request();
        String key = "payment-" + requested.orderId() + "-charge";
        try (BrokerClient broker = PaymentServiceProcess.broker(properties)) {
            try (PaymentServiceProcess first = PaymentServiceProcess.start(broker,
                    crashingAt(properties, "payment.before-charge"), "crash-before-charge")) {
                broker.publish(requested);

                assertThat(first.awaitExit(PATIENCE)).isEqualTo(CrashPoints.EXIT_CODE);
                assertThat(first.log()).contains("CRASH POINT payment.before-charge");
            }
            assertThat(charges(requested)).as("the provider was never asked").isEmpty();
            assertThat(status(database, requested)).isEqualTo("PROCESSING");

            try (PaymentServiceProcess second = PaymentServiceProcess.start(broker,
                    crashingAt(properties, "payment.after-charge-before-record"), "crash-after-charge")) {
                assertThat(second.awaitExit(PATIENCE)).isEqualTo(CrashPoints.EXIT_CODE);
                assertThat(second.log()).contains("the provider has no charge under key " + key)
                        .contains("CRASH POINT payment.after-charge-before-record");
            }
            List<JsonNode> charges = charges(requested);
            assertThat(charges).as("charged before the crash").hasSize(1);
            assertThat(charges.get(0).path("idempotency_key").asString()).isEqualTo(key);
            assertThat(status(database, requested)).as("the charge was never recorded").isEqualTo("PROCESSING");
            assertThat(database.replies(requested.orderId())).isEmpty();

            try (PaymentServiceProcess third = PaymentServiceProcess.start(broker, properties, "recovered")) {
                await().atMost(PATIENCE).until(() -> !database.replies(requested.orderId()).isEmpty());
                assertThat(third.log()).contains("Reconciled the payment of order " + requested.orderId());
            }
        }
        assertThat(database.replies(requested.orderId())).containsExactly("PaymentSucceeded");
        assertThat(status(database, requested)).isEqualTo("SUCCEEDED");
        assertThat(charges(requested)).hasSize(1);
    }

    private static Map<String, Object> crashingAt(Map<String, Object> properties, String point) {
        Map<String, Object> crashing = new LinkedHashMap<>(properties);
        crashing.put("faults.crash-at", point);
        return crashing;
    }

    private List<JsonNode> charges(PaymentRequested requested) {
        return provider.chargesWithReference("order-" + requested.orderId());
    }

    private static String status(ServiceDatabase database, PaymentRequested requested) {
        return (String) database.rows("select status from payments where order_id = ?", requested.orderId()).get(0)
                .get("status");
    }

    private static PaymentRequested request() {
        long orderId = ORDERS.incrementAndGet();
        return new PaymentRequested(UUID.randomUUID(), orderId, 9000 + orderId, 2750L, Instant.now());
    }
}
