package com.example.messaging.relay;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

import com.example.messaging.support.Backoff;
import com.example.messaging.support.Settings;

/**
 * Settings of the outbox relay ({@code messaging.relay.*}). The defaults suit a service on a local
 * network: a broker outage of a few minutes is ridden out by backing off, not by parking.
 *
 * @param enabled         whether this process publishes its outbox (the {@code outbox} health indicator then
 *                        watches the backlog)
 * @param batchSize       rows claimed, published and confirmed together
 * @param lanes           cycles this process runs at the same time, each in its own transaction: while one waits
 *                        for its confirms, the next claims what committed meanwhile (rows of an aggregate still go
 *                        one after the other, see {@link OutboxStore})
 * @param pollInterval    fallback wake-up when a notification is missed
 * @param confirmTimeout  how long a batch waits for its publisher confirms before counting the rest as failed
 * @param drainTimeout    how long stopping waits for the cycle in flight to finish (so that a published batch is
 *                        marked sent); longer than {@code confirmTimeout}, and part of the stop grace period a
 *                        container gets (docs/operations.md, "Stopping a service")
 * @param cycleTimeout    how long one cycle (claim, publish, confirms, mark, commit) may take before it is
 *                        abandoned and rolled back; a database connection that stops answering without
 *                        closing (seen after database restarts under load) would otherwise stall the relay
 * @param parkAfter       how long the broker may keep refusing a row (nack, return) while it accepts other
 *                        rows before the row is parked; an outage (broker unreachable, blocked or withholding
 *                        confirms) is no refusal and starts the budget again
 * @param backoff         delay before a row whose delivery failed is tried again
 * @param exchanges       exchanges declared up front (durable topic); exchanges named by rows are declared too
 * @param statsInterval   how often the backlog figures behind the gauges and the health indicator are refreshed
 * @param listener        the LISTEN connection that wakes the relay
 * @param health          when the {@code outbox} health indicator reports the backlog
 * @param retention       how long sent rows are kept, and how they are deleted
 * @param handOff         publishing right after the commit by the process that wrote the rows ({@link OutboxHandOff})
 */
@ConfigurationProperties("messaging.relay")
public record RelayProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("200") int batchSize,
        @DefaultValue("2") int lanes,
        @DefaultValue("1s") Duration pollInterval,
        @DefaultValue("10s") Duration confirmTimeout,
        @DefaultValue("30s") Duration cycleTimeout,
        @DefaultValue("15s") Duration drainTimeout,
        @DefaultValue("5m") Duration parkAfter,
        @DefaultValue @NestedConfigurationProperty Backoff backoff,
        @DefaultValue List<String> exchanges,
        @DefaultValue("5s") Duration statsInterval,
        @DefaultValue Listener listener,
        @DefaultValue Health health,
        @DefaultValue Retention retention,
        @DefaultValue HandOff handOff) {

    public RelayProperties {
        require(batchSize >= 1, "batch-size must be at least 1");
        require(lanes >= 1, "lanes must be at least 1");
        requirePositive(parkAfter, "park-after");
        requirePositive(pollInterval, "poll-interval");
        requirePositive(confirmTimeout, "confirm-timeout");
        require(cycleTimeout != null && cycleTimeout.compareTo(confirmTimeout) > 0,
                "cycle-timeout must be longer than confirm-timeout");
        require(drainTimeout != null && drainTimeout.compareTo(confirmTimeout) > 0,
                "drain-timeout must be longer than confirm-timeout");
        requirePositive(statsInterval, "stats-interval");
        require(handOff.lease().compareTo(confirmTimeout) > 0, "hand-off.lease must be longer than confirm-timeout");
        exchanges = List.copyOf(exchanges);
    }

    /**
     * A cycle's transaction stays open while it waits for the broker's confirms: PostgreSQL must not end it as idle
     * ({@code service.database.idle-in-transaction-timeout}) before the cycle itself gives up.
     */
    void requireShorterThan(Duration idleInTransactionTimeout) {
        require(cycleTimeout.compareTo(idleInTransactionTimeout) < 0, "messaging.relay.cycle-timeout (" + cycleTimeout
                + ") must be shorter than service.database.idle-in-transaction-timeout (" + idleInTransactionTimeout
                + ")");
    }

    /**
     * The LISTEN connection that wakes the relay when events commit.
     *
     * @param enabled          false where LISTEN does not work (a transaction-pooling proxy in front of
     *                         PostgreSQL): the relay then relies on polling alone
     * @param reconnectInitial first delay before reconnecting after the connection dropped (database
     *                         restart, network); it doubles up to {@code reconnectMax}
     * @param reconnectMax     the longest delay between two attempts to reconnect
     * @param quietPoll        the poll interval while the relay has nothing to poll for: the connection is
     *                         listening (every commit that writes a row wakes the relay) and the last cycle and the
     *                         backlog figures taken after it found no row waiting; longer than {@code poll-interval}
     *                         makes an idle service cheaper, and a row nobody was told about waits at most
     *                         {@code stats-interval} plus {@code poll-interval} all the same (the figures see it)
     */
    public record Listener(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("500ms") Duration reconnectInitial,
            @DefaultValue("30s") Duration reconnectMax,
            @DefaultValue("10s") Duration quietPoll) {

        public Listener {
            requirePositive(reconnectInitial, "listener.reconnect-initial");
            requirePositive(reconnectMax, "listener.reconnect-max");
            requirePositive(quietPoll, "listener.quiet-poll");
        }
    }

    /**
     * @param maxUnsentAge the {@code outbox} health indicator reports OUT_OF_SERVICE while a row that is not parked
     *                     waits longer than this
     */
    public record Health(@DefaultValue("1m") Duration maxUnsentAge) {

        public Health {
            requirePositive(maxUnsentAge, "health.max-unsent-age");
        }
    }

    /**
     * @param age       sent rows older than this are deleted; unsent and parked rows never are
     * @param interval  time between clean-ups (the first runs one interval after start)
     * @param batchSize rows deleted per statement, so that no clean-up holds many locks at once
     */
    public record Retention(
            @DefaultValue("7d") Duration age,
            @DefaultValue("1m") Duration interval,
            @DefaultValue("500") int batchSize) {

        public Retention {
            requirePositive(age, "retention.age");
            requirePositive(interval, "retention.interval");
            require(batchSize >= 1, "retention.batch-size must be at least 1");
        }
    }

    /**
     * @param enabled whether the writers that can (the inbox's replies, a service's own {@link OutboxHandOff#writer}
     *                holders) hand their rows to this process's relay after the commit instead of notifying the sweep
     * @param lease   how long the sweep leaves a handed-off row alone: if the process that wrote it has not published
     *                it by then (the broker did not take it, or the process died; a relay that starts ends every lease
     *                at once), the sweep does; longer than {@code confirm-timeout}, so that a hand-off waiting for its
     *                confirms is not published twice
     */
    public record HandOff(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("15s") Duration lease) {

        public HandOff {
            requirePositive(lease, "hand-off.lease");
        }
    }

    private static void requirePositive(Duration value, String name) {
        Settings.requirePositive(value, "messaging.relay." + name);
    }

    private static void require(boolean condition, String message) {
        Settings.require(condition, "messaging.relay." + message);
    }
}
