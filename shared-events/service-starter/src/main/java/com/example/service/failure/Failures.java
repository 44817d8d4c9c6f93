package com.example.service.failure;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;

import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTransientException;

/**
 * The one place that reads cause chains: what a failure was caused by, whether it says the database (or the
 * network under it) is unavailable, and a one-line description with its root cause. The web layer turns an
 * unavailable database into a 503, the inbox into a retry, the relay into a log line.
 */
public final class Failures {

    /** Connections refused or lost, pool and statement timeouts, deadlocks and serialization failures. */
    private static final List<Class<? extends Throwable>> INFRASTRUCTURE = List.of(
            TransientDataAccessException.class, DataAccessResourceFailureException.class,
            CannotCreateTransactionException.class, R2dbcTransientException.class,
            R2dbcNonTransientResourceException.class, IOException.class, TimeoutException.class);

    /**
     * The SQLSTATEs of a statement PostgreSQL cancelled for taking too long: 57014 query_canceled
     * ({@code statement_timeout}, or a cancel request) and 55P03 lock_not_available ({@code lock_timeout}, or
     * {@code NOWAIT}).
     */
    private static final String LOCK_NOT_AVAILABLE = "55P03";
    private static final Set<String> DATABASE_TIMEOUTS = Set.of("57014", LOCK_NOT_AVAILABLE);

    /** Bounds the walk down a cause chain that loops back on itself. */
    private static final int MAX_DEPTH = 32;

    private Failures() {
    }

    /** The failure, its cause, its cause's cause, and so on. */
    public static Stream<Throwable> causes(Throwable failure) {
        return Stream.iterate(failure, cause -> cause != null, Throwable::getCause).limit(MAX_DEPTH);
    }

    /** The first throwable of the chain that is a {@code type}. */
    public static <T extends Throwable> Optional<T> find(Throwable failure, Class<T> type) {
        return causes(failure).filter(type::isInstance).map(type::cast).findFirst();
    }

    /** Whether any throwable of the chain is one of the types. */
    public static boolean has(Throwable failure, List<Class<? extends Throwable>> types) {
        return causes(failure).anyMatch(cause -> types.stream().anyMatch(type -> type.isInstance(cause)));
    }

    /**
     * Whether the failure says the database could not be reached or did not answer in time, rather than that
     * the work itself was wrong: the same work can succeed later.
     */
    public static boolean isInfrastructure(Throwable failure) {
        return has(failure, INFRASTRUCTURE) || causes(failure).anyMatch(Failures::fromConnectionPool);
    }

    /**
     * Whether PostgreSQL cancelled a statement because it ran or waited for a lock too long. Such a failure is
     * infrastructure too (the same work may go through once the load or the lock is gone), but unlike an outage
     * it says the database answered.
     */
    /** PostgreSQL cancelled a statement that waited too long for a lock (55P03, {@code lock_timeout}). */
    public static boolean isLockTimeout(Throwable failure) {
        return causes(failure).anyMatch(cause -> cause instanceof R2dbcException r2dbc
                && LOCK_NOT_AVAILABLE.equals(r2dbc.getSqlState()));
    }

    public static boolean isDatabaseTimeout(Throwable failure) {
        return causes(failure).anyMatch(cause -> cause instanceof R2dbcException r2dbc
                && r2dbc.getSqlState() != null && DATABASE_TIMEOUTS.contains(r2dbc.getSqlState()));
    }

    /** {@code failure} and, when it has a different root cause, {@code (caused by root)}. */
    public static String describe(Throwable failure) {
        Throwable root = causes(failure).reduce((first, second) -> second).orElse(failure);
        return root == failure ? failure.toString() : failure + " (caused by " + root + ")";
    }

    /** r2dbc-pool's own exceptions (acquire timeout, pool shut down) are about connections, never about data. */
    private static boolean fromConnectionPool(Throwable cause) {
        return cause.getClass().getName().startsWith("io.r2dbc.pool.");
    }
}
