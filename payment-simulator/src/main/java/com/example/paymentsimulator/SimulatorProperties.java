package com.example.paymentsimulator;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the simulator ({@code simulator.*}).
 *
 * @param apiKey            the secret a caller sends as {@code Authorization: Bearer <key>} on {@code /charges*};
 *                          required: the simulator does not start without one
 * @param declineAboveCents charges of more than this are always declined
 * @param holdAfterCharge   how long an answer withheld by {@code timeout_after_charge_percent} is held before the
 *                          connection is dropped; longer than any caller's timeout
 */
@ConfigurationProperties("simulator")
public record SimulatorProperties(String apiKey, @DefaultValue("100000000") long declineAboveCents,
        @DefaultValue("30s") Duration holdAfterCharge) {

    public SimulatorProperties {
        if (apiKey == null || apiKey.isBlank()) {
            throw new IllegalArgumentException("simulator.api-key (env SIMULATOR_API_KEY) is empty: like a real "
                    + "provider, the simulator wants its own secret API key on /charges, configured on both sides "
                    + "(./stack and compose generate one)");
        }
        if (declineAboveCents < 0) {
            throw new IllegalArgumentException("simulator.decline-above-cents must not be negative");
        }
        if (holdAfterCharge == null || holdAfterCharge.isNegative()) {
            throw new IllegalArgumentException("simulator.hold-after-charge must not be negative");
        }
    }

    @Override
    public String toString() {
        // No secrets in logs or failure reports.
        return "SimulatorProperties[declineAboveCents=" + declineAboveCents + ", holdAfterCharge=" + holdAfterCharge
                + "]";
    }
}
