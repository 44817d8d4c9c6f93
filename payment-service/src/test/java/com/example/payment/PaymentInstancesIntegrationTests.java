package com.example.payment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import com.example.events.PaymentRequested;
import com.example.testsupport.BrokerClient;
import com.example.testsupport.ServiceDatabase;
import com.example.testsupport.TestInfrastructure;

/**
 * Two instances of payment-service on one database and one queue, each consuming and each claiming payments. The
 * provider's key would hide a payment both instances charged (it answers the second request with the first charge),
 * so what is counted is the charge requests the instances made: one per payment, none made twice.
 */
class PaymentInstancesIntegrationTests {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final int PAYMENTS = 20;
    /** Order ids of their own: the simulator's ledger is shared by every test class of the JVM. */
    private static final AtomicLong ORDERS = new AtomicLong(800_000);

    private final TestInfrastructure infrastructure = TestInfrastructure.get();
    private final ProviderSimulator provider = ProviderSimulator.get();

    @Test
    void twoInstancesChargeEveryPaymentOnceBetweenThem() {
        String databaseName = infrastructure.createDatabase("it_payment_instances");
        Map<String, Object> properties = PaymentServiceProcess.properties(databaseName, "it-payment-instances");
        // Events spread over both instances, and each round claims one payment: the instances' claims interleave.
        properties.put("spring.cloud.stream.rabbit.default.consumer.prefetch", 1);
        properties.put("payment.worker.batch-size", 1);
        ServiceDatabase database = ServiceDatabase.on(infrastructure.postgres(), databaseName);
        List<PaymentRequested> requests = LongStream.range(0, PAYMENTS).mapToObj(i -> request()).toList();
        try (BrokerClient broker = PaymentServiceProcess.broker(properties);
                // The second starts while the first does (each on ports of its own): half the wait.
                StartingInstance starting = new StartingInstance(CompletableFuture.supplyAsync(
                        () -> PaymentServiceProcess.start(broker, properties, "instance-2")));
                PaymentServiceProcess first = PaymentServiceProcess.start(broker, properties, "instance-1");
                PaymentServiceProcess second = starting.await()) {

            requests.parallelStream().forEach(broker::publish);

            await().atMost(PATIENCE).until(() -> database.count(
                    "select count(*) from payments where status = 'SUCCEEDED'") == PAYMENTS);
            double firstCharges = first.metric("payment_provider_requests_total", "operation=\"charge\"");
            double secondCharges = second.metric("payment_provider_requests_total", "operation=\"charge\"");
            assertThat(firstCharges + secondCharges).as("charge requests, %s + %s", firstCharges, secondCharges)
                    .isEqualTo(PAYMENTS);
            assertThat(firstCharges).as("the first instance charged some").isPositive();
            assertThat(secondCharges).as("the second instance charged some").isPositive();
        }
        for (PaymentRequested requested : requests) {
            assertThat(database.replies(requested.orderId())).containsExactly("PaymentSucceeded");
            assertThat(provider.chargesWithReference("order-" + requested.orderId())).hasSize(1);
        }
    }

    /** An instance being started in the background; closing it stops it, started or not. */
    private record StartingInstance(CompletableFuture<PaymentServiceProcess> instance) implements AutoCloseable {

        PaymentServiceProcess await() {
            return instance.join();
        }

        @Override
        public void close() {
            instance.thenAccept(PaymentServiceProcess::close);
        }
    }

    private static PaymentRequested request() {
        long orderId = ORDERS.incrementAndGet();
        return new PaymentRequested(UUID.randomUUID(), orderId, 9000 + orderId, 1234L, Instant.now());
    }
}
