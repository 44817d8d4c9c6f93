package com.example.messaging.inbox;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.springframework.r2dbc.core.DatabaseClient;

/** Asks the database whether it answers at all, within a bound. */
final class DatabaseProbe implements BooleanSupplier {

    private final DatabaseClient db;
    private final Duration timeout;

    DatabaseProbe(DatabaseClient db, Duration timeout) {
        this.db = db;
        this.timeout = timeout;
    }

    @Override
    public boolean getAsBoolean() {
        try {
            return db.sql("select 1").map(row -> 1).first().timeout(timeout).blockOptional().isPresent();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
