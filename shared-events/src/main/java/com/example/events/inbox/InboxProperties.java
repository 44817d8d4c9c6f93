package com.example.events.inbox;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Tuning of the inbox ({@code app.inbox.*}).
 *
 * @param transactionTimeout how long the listener thread waits for one inbox transaction
 * @param probeTimeout how long to wait for the database to answer when judging an unknown failure
 * @param retry backoff between attempts while the database is unavailable
 */
@ConfigurationProperties("app.inbox")
public record InboxProperties(@DefaultValue("30s") Duration transactionTimeout, @DefaultValue("2s") Duration probeTimeout,
        @DefaultValue Retry retry) {

    /**
     * Attempts are unlimited; only the pause between them is bounded.
     *
     * @param initialBackoff pause after the first failure, doubled after each further one
     * @param maxBackoff the longest pause
     */
    public record Retry(@DefaultValue("200ms") Duration initialBackoff, @DefaultValue("10s") Duration maxBackoff) {
    }
}
