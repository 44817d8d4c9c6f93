package com.example.messaging.inbox;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Asks the database whether it answers at all, within a bound; and, after a lock timeout, whether another session
 * of the same database sits idle inside a transaction for longer than a statement may wait for a lock.
 */
final class DatabaseProbe implements BooleanSupplier {

    private final DatabaseClient db;
    private final Duration timeout;
    private final Duration lockTimeout;

    DatabaseProbe(DatabaseClient db, Duration timeout, Duration lockTimeout) {
        this.db = db;
        this.timeout = timeout;
        this.lockTimeout = lockTimeout;
    }

    /**
     * A session that opened a transaction and then stopped talking (a frozen or stopped process, an interactive
     * session left open) keeps its row locks: a statement waiting for them times out through no fault of its own.
     * False when the database does not say (it does not answer, or hides other sessions' states from this role).
     */
    boolean idleTransactionHoldsLocks() {
        try {
            return Boolean.TRUE.equals(db.sql("""
                    select exists (select 1 from pg_stat_activity
                                   where datname = current_database() and pid <> pg_backend_pid()
                                     and state in ('idle in transaction', 'idle in transaction (aborted)')
                                     and state_change < now() - make_interval(secs => :seconds))""")
                    .bind("seconds", lockTimeout.toMillis() / 1000.0)
                    .map(row -> row.get(0, Boolean.class)).first().timeout(timeout).block());
        } catch (RuntimeException e) {
            return false;
        }
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
