package com.example.messaging.deadletter;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.example.messaging.support.Settings;

/**
 * Settings of the dead-letter queues' monitoring and re-drive ({@code messaging.dead-letters.*}).
 *
 * @param refreshInterval how often the depths behind the gauges and the {@code deadLetters} health indicator are
 *                        read from the broker
 * @param brokerTimeout   how long reading the depths, or the broker's confirm of a batch of messages moved back,
 *                        may take before the broker counts as unavailable
 */
@ConfigurationProperties("messaging.dead-letters")
public record DeadLetterProperties(
        @DefaultValue("15s") Duration refreshInterval,
        @DefaultValue("10s") Duration brokerTimeout) {

    public DeadLetterProperties {
        Settings.requirePositive(refreshInterval, "messaging.dead-letters.refresh-interval");
        Settings.requirePositive(brokerTimeout, "messaging.dead-letters.broker-timeout");
    }
}
