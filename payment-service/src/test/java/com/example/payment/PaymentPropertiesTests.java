package com.example.payment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.example.messaging.support.Backoff;

class PaymentPropertiesTests {

    private static final URI URL = URI.create("http://localhost:8090");

    @Test
    void theProvidersApiKeyIsRequiredAndTheMessageSaysWhereToSetIt() {
        for (String missing : new String[] { null, "", "  " }) {
            assertThatThrownBy(() -> provider(missing))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("payment.provider.api-key")
                    .hasMessageContaining("PAYMENT_PROVIDER_API_KEY");
        }
    }

    @Test
    void theKeyNeverAppearsInTheSettingsPrintedForm() {
        assertThat(provider("s3cret-key")).asString().doesNotContain("s3cret-key").contains("localhost:8090");
    }

    /** An attempt may look the charge up and then charge again: two calls, each with its quick retries. */
    @Test
    void aClaimIsLeasedForTwoCallsWithTheirQuickRetriesAndAMargin() {
        PaymentProperties.Provider provider = provider("key");
        PaymentProperties properties = new PaymentProperties(provider, new PaymentProperties.Worker(
                Duration.ofMillis(100), 32, 16, true, false, 2, Duration.ofSeconds(1),
                new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1), 0.5), Duration.ofSeconds(10),
                Duration.ofSeconds(10), true));

        // 3 tries of (1s for a pooled connection + 1s to connect + 2s to answer), and 2 pauses of at most 1s.
        assertThat(provider.attemptTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(provider.callBudget()).isEqualTo(Duration.ofSeconds(14));
        assertThat(properties.lease()).isEqualTo(Duration.ofSeconds(29));
    }

    private static PaymentProperties.Provider provider(String apiKey) {
        return new PaymentProperties.Provider(URL, apiKey, Duration.ofSeconds(2), Duration.ofSeconds(1), 2,
                Duration.ofMillis(100), Duration.ofSeconds(1), 10);
    }
}
