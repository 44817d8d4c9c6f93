package com.example.payment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.atLeast;
import static org.mockito.Mockito.atMost;
import static org.mockito.Mockito.clearInvocations;
import static org.mockito.Mockito.verify;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

import com.example.events.PaymentEvent;
import com.example.payment.persistence.PaymentRepository;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;

/**
 * The worker's poll while nothing is happening: it polls once per {@code stats-interval} instead of once per
 * {@code poll-interval} while the payment figures see no payment with work left, and a payment another instance left
 * behind (no wake-up announces it here) still shows in the next figures and is taken up by the polls they bring back.
 * A context of its own: the worker polls here, where {@link PaymentIntegrationTests} makes it wait for wake-ups.
 */
@SpringBootTest
@FreshInfrastructure
@TestPropertySource(properties = { "payment.worker.poll-interval=100ms", "payment.worker.stats-interval=1s" })
class PaymentWorkerPollsIntegrationTests extends ConsumerTestSupport {

    @MockitoSpyBean
    PaymentRepository payments;

    @DynamicPropertySource
    static void provider(DynamicPropertyRegistry registry) {
        registry.add("payment.provider.url", () -> ProviderSimulator.get().url());
        registry.add("payment.provider.api-key", () -> ProviderSimulator.API_KEY);
    }

    @Override
    protected String replyExchange() {
        return PaymentEvent.EXCHANGE;
    }

    @Test
    void anIdleWorkerPollsOncePerRefreshOfTheFiguresAndTakesUpAPaymentAnotherInstanceLeftBehind() {
        // Figures asked for after the worker's first claims, which found nothing: it is quiet from then on.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> verify(payments, atLeast(2)).workLeft());
        clearInvocations(payments);
        // Once per second at most, against 30 times in 3 s at poll-interval.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4))
                .untilAsserted(() -> verify(payments, atMost(5)).claimDue(anyInt(), any()));

        // Recorded CREATED by an instance that crashed before it could start the charge: nobody wakes this worker.
        long orderId = 700_001;
        database.execute("insert into payments (order_id, user_id, amount_cents, status, charge_key, attempts, "
                + "next_attempt_at) values (?, 7, 1800, 'CREATED', ?, 0, now())", orderId, "payment-" + orderId
                + "-charge");

        assertThat(awaitReplies(orderId, 1)).containsExactly("PaymentSucceeded");
        assertThat(ProviderSimulator.get().chargesWithReference("order-" + orderId)).hasSize(1);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(database.rows(
                "select status from payments where order_id = ?", orderId)).containsExactly(
                        Map.of("status", "SUCCEEDED")));
    }
}
