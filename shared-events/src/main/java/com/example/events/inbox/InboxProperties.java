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
 * @param retention how long processed event ids are remembered
 */
@ConfigurationProperties("app.inbox")
public record InboxProperties(@DefaultValue("30s") Duration transactionTimeout, @DefaultValue("2s") Duration probeTimeout,
        @DefaultValue Retry retry, @DefaultValue Retention retention) {

    /**
     * Attempts are unlimited; only the pause between them is bounded.
     *
     * @param initialBackoff pause after the first failure, doubled after each further one
     * @param maxBackoff the longest pause
     */
    public record Retry(@DefaultValue("200ms") Duration initialBackoff, @DefaultValue("10s") Duration maxBackoff) {
    }

    /**
     * @param age processed event ids older than this are forgotten; longer than any redelivery window
     * @param interval how often the janitor looks
     * @param batchSize ids deleted per statement
     */
    public record Retention(@DefaultValue("30d") Duration age, @DefaultValue("10m") Duration interval,
            @DefaultValue("1000") int batchSize) {
    }
}
