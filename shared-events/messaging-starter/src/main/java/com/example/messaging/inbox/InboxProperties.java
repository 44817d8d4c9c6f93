package com.example.messaging.inbox;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.example.messaging.support.Backoff;
import com.example.messaging.support.Settings;

/**
 * Settings of the inbox ({@code messaging.inbox.*}). Attempts at a transaction that fails for lack of a database
 * are unlimited; only the pause between them is bounded. Attempts that time out while the database answers are
 * bounded.
 *
 * @param transactionTimeout   how long the listener thread waits for one inbox transaction; longer than the
 *                             database's statement timeout ({@code service.database.statement-timeout})
 * @param probeTimeout         how long to wait for the database to answer when judging an unknown failure
 * @param timeoutsBeforePoison the number of timed-out attempts of one delivery (statement or lock timeout, or the
 *                             transaction timeout, while the database answers) that make the message poison
 * @param backoff              pause between attempts while the database is unavailable or an attempt timed out
 * @param retention            how long processed event ids are remembered
 * @param batch                consumption of several deliveries in one transaction
 */
@ConfigurationProperties("messaging.inbox")
public record InboxProperties(
        @DefaultValue("30s") Duration transactionTimeout,
        @DefaultValue("2s") Duration probeTimeout,
        @DefaultValue("3") int timeoutsBeforePoison,
        @DefaultValue @NestedConfigurationProperty Backoff backoff,
        @DefaultValue Retention retention,
        @DefaultValue Batch batch) {

    public InboxProperties {
        Settings.requirePositive(transactionTimeout, "messaging.inbox.transaction-timeout");
        Settings.requirePositive(probeTimeout, "messaging.inbox.probe-timeout");
        Settings.require(timeoutsBeforePoison >= 1, "messaging.inbox.timeouts-before-poison must be at least 1");
    }

    /**
     * Refuses a statement timeout that does not end before the transaction timeout: the listener thread would give
     * up on a statement that PostgreSQL is still running, with its locks held, and the attempt would end without
     * the SQLSTATE that says what happened.
     */
    void requireLongerThan(Duration statementTimeout) {
        Settings.require(statementTimeout.compareTo(transactionTimeout) < 0, "service.database.statement-timeout ("
                + statementTimeout + ") must be shorter than messaging.inbox.transaction-timeout (" + transactionTimeout
                + ")");
    }

    /**
     * @param age       processed event ids older than this are forgotten; longer than any redelivery window
     * @param interval  how often the janitor looks
     * @param batchSize ids deleted per statement
     */
    public record Retention(
            @DefaultValue("30d") Duration age,
            @DefaultValue("10m") Duration interval,
            @DefaultValue("1000") int batchSize) {

        public Retention {
            Settings.requirePositive(age, "messaging.inbox.retention.age");
            Settings.requirePositive(interval, "messaging.inbox.retention.interval");
            Settings.require(batchSize >= 1, "messaging.inbox.retention.batch-size must be at least 1");
        }
    }

    /**
     * Batch consumption: the binding hands the inbox up to {@code size} deliveries at once, which it applies in one
     * transaction (still one processed_events row per event) and acknowledges together after the commit. A batch
     * closes when it is full, when no further message arrives within {@code linger}, or at the latest about one
     * {@code linger} after its first message; so under load batches fill from what the broker has already sent (the
     * prefetch), and an event waits at most about twice the linger for its batch to close. An idle consumer also
     * wakes once per linger. Size 1 (the default) is one transaction per delivery.
     *
     * @param size   the most deliveries per transaction; more than 1 needs a prefetch at least as large to fill
     * @param linger how long the consumer waits for the next message of an open batch
     */
    public record Batch(
            @DefaultValue("1") int size,
            @DefaultValue("5ms") Duration linger) {

        public Batch {
            Settings.require(size >= 1, "messaging.inbox.batch.size must be at least 1");
            Settings.requirePositive(linger, "messaging.inbox.batch.linger");
        }

        /** Whether deliveries are consumed in batches at all. */
        public boolean enabled() {
            return size > 1;
        }
    }
}
