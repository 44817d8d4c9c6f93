package com.example.messaging.relay;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.messaging.outbox.OutboxWriter;

import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.api.PostgresqlResult;
import io.r2dbc.spi.ConnectionFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Wakes the relay when a transaction that wrote outbox rows commits ({@link OutboxWriter} notifies
 * on {@link OutboxWriter#CHANNEL}). LISTEN is a property of a session, so it runs on a connection of
 * its own, outside the pool; when that connection drops (database restart, network) it reconnects
 * with backoff, and every (re)connect is a wake-up too, because notifications sent while no one
 * listened are lost. Polling remains the fallback for anything missed, and the only wake-up when
 * notifications are {@link #off()}.
 */
final class NotificationListener {

    private static final Logger log = LoggerFactory.getLogger(NotificationListener.class);

    private final ConnectionFactory factory;
    private final RelayProperties.Listener settings;
    private volatile boolean listening;

    /** @param factory creates plain (unpooled) r2dbc-postgresql connections */
    NotificationListener(ConnectionFactory factory, RelayProperties.Listener settings) {
        this.factory = factory;
        this.settings = settings;
    }

    /** A listener that never wakes anyone: the relay then relies on polling alone. */
    static NotificationListener off() {
        return new NotificationListener(null, null);
    }

    boolean isOn() {
        return factory != null;
    }

    /** Never completes by itself; cancel it to close the connection. */
    Flux<String> wakeUps() {
        if (factory == null) {
            return Flux.never();
        }
        return Flux.usingWhen(Mono.from(factory.create()).cast(PostgresqlConnection.class),
                        this::listen,
                        connection -> Mono.from(connection.close()).onErrorResume(e -> Mono.empty()))
                // A connection that ends without an error is still gone: treat it like one.
                .concatWith(Mono.error(() -> new IllegalStateException("notification connection closed")))
                .doOnError(e -> listening = false)
                .doOnCancel(() -> listening = false)
                .retryWhen(Retry.backoff(Long.MAX_VALUE, settings.reconnectInitial())
                        .maxBackoff(settings.reconnectMax())
                        // Start again from the shortest delay once a connection has delivered something.
                        .transientErrors(true)
                        .doBeforeRetry(this::reconnecting));
    }

    private void reconnecting(Retry.RetrySignal signal) {
        // One warning when the connection is lost, not one per attempt while the database is away.
        if (signal.totalRetriesInARow() == 0) {
            log.warn("Outbox LISTEN connection lost ({}); reconnecting, polling meanwhile", signal.failure().toString());
        } else {
            log.debug("Outbox LISTEN connection still down (attempt {}): {}", signal.totalRetriesInARow() + 1,
                    signal.failure().toString());
        }
    }

    boolean isListening() {
        return listening;
    }

    private Flux<String> listen(PostgresqlConnection connection) {
        return connection.createStatement("LISTEN " + OutboxWriter.CHANNEL)
                .execute()
                .flatMap(PostgresqlResult::getRowsUpdated)
                .then(Mono.fromRunnable(() -> {
                    listening = true;
                    log.info("Outbox relay listening for notifications on channel {}", OutboxWriter.CHANNEL);
                }))
                .thenMany(Flux.concat(Mono.just("listening"),
                        connection.getNotifications().map(notification -> "notified")));
    }
}
