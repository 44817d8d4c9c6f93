package com.example.messaging.support;

import org.reactivestreams.Publisher;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import reactor.core.publisher.Mono;

/**
 * An R2DBC connection factory that never connects, for the auto-configuration tests: they look at which beans
 * exist, and a background task that tries the database only logs its failure.
 */
public final class StubConnectionFactory implements ConnectionFactory {

    @Override
    public Publisher<? extends Connection> create() {
        return Mono.error(new IllegalStateException("no database in an auto-configuration test"));
    }

    @Override
    public ConnectionFactoryMetadata getMetadata() {
        return () -> "PostgreSQL";
    }
}
