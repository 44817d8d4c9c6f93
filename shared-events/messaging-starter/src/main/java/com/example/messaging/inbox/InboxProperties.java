package com.example.messaging.inbox;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import com.example.events.EventTypes;
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
 * @param maxMessageSize       the largest message body the inbox reads; a larger one is poison (this system's events
 *                             are well under a kilobyte, an order's body is refused over 64 KiB)
 */
@ConfigurationProperties("messaging.inbox")
public record InboxProperties(
        @DefaultValue("30s") Duration transactionTimeout,
        @DefaultValue("2s") Duration probeTimeout,
        @DefaultValue("3") int timeoutsBeforePoison,
        @DefaultValue @NestedConfigurationProperty Backoff backoff,
        @DefaultValue Retention retention,
        @DefaultValue Batch batch,
        @DefaultValue("256KB") DataSize maxMessageSize) {

    public InboxProperties {
        Settings.requirePositive(transactionTimeout, "messaging.inbox.transaction-timeout");
        Settings.requirePositive(probeTimeout, "messaging.inbox.probe-timeout");
        Settings.require(timeoutsBeforePoison >= 1, "messaging.inbox.timeouts-before-poison must be at least 1");
        Settings.require(maxMessageSize.toBytes() > 0, "messaging.inbox.max-message-size must be positive");
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
     * Batch consumption: the listener thread queues each event on the lane of the order it is about, and what gathers
     * on a lane while its batch is being applied makes up the next one, up to {@code size} deliveries, applied in one
     * transaction (still one processed_events row per event) and acknowledged after the commit. Nobody waits for a
     * batch to fill: a delivery that arrives while its lane has nothing in flight is applied at once, alone, and an
     * idle consumer does nothing. Under load the batches grow with the load, bounded by the prefetch (the deliveries
     * in flight per consumer). Size 1 is one transaction per delivery, applied on the listener thread (also what
     * happens without a RabbitMQ connection).
     *
     * @param size        the most deliveries per transaction; a prefetch of at least twice the size lets the next
     *                    batch gather while one is in flight
     * @param lanes       how many batches may be in flight at once, whatever the number of queues and consumers: the
     *                    events of one order always take the same lane, so two batches in flight never hold the
     *                    same order's rows
     * @param stopTimeout how long stopping waits for the batches in flight before it hands them back to the queue
     * @param lockTimeout how long a batch waits for a row lock before it gives up and its events are applied one at a
     *                    time (PostgreSQL's {@code lock_timeout} for the batch's transaction only); none by default: a
     *                    batch then waits as long as any statement of the service, queueing behind another batch that
     *                    holds the same rows, and a circle (two batches each holding rows the other wants, where
     *                    the order in which batches lock does not prevent one) is ended by PostgreSQL's deadlock
     *                    detection ({@code deadlock_timeout}, 1 s), after which the batch's events go one at a time
     * @param linger      how long a lane that had nothing in flight waits after its first delivery before it takes the
     *                    batch, so that deliveries about the same order arriving a few milliseconds apart (order-service's
     *                    three replies) are applied in one transaction; zero by default: a lone delivery goes at once.
     *                    Paid once by each batch that starts on an idle lane; a busy lane's next batch gathers while
     *                    the one before is applied, as without it
     * @param lingerFor   the event types whose arrival on an idle lane makes it linger: records ({@code RiskApproved})
     *                    or whole families ({@code RiskEvent}); empty (the default): every type. An event that arrives
     *                    alone (order-service's payment result) then goes at once
     */
    public record Batch(
            @DefaultValue("1") int size,
            @DefaultValue("8") int lanes,
            @DefaultValue("5s") Duration stopTimeout,
            Duration lockTimeout,
            @DefaultValue("0ms") Duration linger,
            List<String> lingerFor) {

        public Batch {
            Settings.require(size >= 1, "messaging.inbox.batch.size must be at least 1");
            Settings.require(lanes >= 1, "messaging.inbox.batch.lanes must be at least 1");
            Settings.requirePositive(stopTimeout, "messaging.inbox.batch.stop-timeout");
            Settings.require(lockTimeout == null || lockTimeout.toMillis() >= 1,
                    "messaging.inbox.batch.lock-timeout must be at least 1ms");
            Settings.require(linger != null && !linger.isNegative() && linger.compareTo(stopTimeout) < 0,
                    "messaging.inbox.batch.linger must be zero or more, and shorter than the stop timeout");
            lingerFor = lingerFor == null ? List.of() : List.copyOf(lingerFor);
            for (String name : lingerFor) {
                Settings.require(EventTypes.recordsNamed(name).isPresent(), "messaging.inbox.batch.linger-for: '" + name
                        + "' is neither an event type nor a producer's family of them");
            }
        }

        /** Which event types (by name) make a lane that was idle linger when they arrive on it. */
        Predicate<String> lingersFor() {
            if (linger.isZero()) {
                return eventType -> false;
            }
            if (lingerFor.isEmpty()) {
                return eventType -> true;
            }
            Set<String> types = lingerFor.stream()
                    .flatMap(name -> EventTypes.recordsNamed(name).orElseThrow().stream())
                    .map(Class::getSimpleName)
                    .collect(Collectors.toUnmodifiableSet());
            return types::contains;
        }

        /** Whether deliveries are consumed in batches at all. */
        public boolean enabled() {
            return size > 1;
        }
    }
}
