package com.example.events.inbox;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;

import com.example.events.EventFormatException;

import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTransientException;

/**
 * Decides what a failed inbox transaction means. Poison goes to the dead-letter queue; a transient
 * failure is retried until it goes away; an interruption means the listener is being stopped.
 *
 * <p>Known infrastructure failures (connections refused or lost, pool and statement timeouts,
 * deadlocks and serialization failures) are transient by type. Any other failure is judged by asking
 * the database: if it does not answer, the failure is transient whatever its type (a dying server
 * produces surprising exceptions); if it answers, the same transaction will fail the same way again,
 * so the message is poison.
 */
final class FailureClassifier {

    enum Kind {
        POISON, TRANSIENT, INTERRUPTED
    }

    private static final List<Class<? extends Throwable>> TRANSIENT_TYPES = List.of(
            TransientDataAccessException.class, DataAccessResourceFailureException.class,
            CannotCreateTransactionException.class, R2dbcTransientException.class,
            R2dbcNonTransientResourceException.class, IOException.class, TimeoutException.class);

    /** Bounds the walk down a cause chain that loops back on itself. */
    private static final int MAX_DEPTH = 32;

    private final BooleanSupplier databaseAnswers;

    FailureClassifier(BooleanSupplier databaseAnswers) {
        this.databaseAnswers = databaseAnswers;
    }

    Kind classify(Throwable failure) {
        if (Thread.currentThread().isInterrupted() || has(failure, List.of(InterruptedException.class))) {
            return Kind.INTERRUPTED;
        }
        if (has(failure, List.of(PoisonMessageException.class, EventFormatException.class))) {
            return Kind.POISON;
        }
        if (has(failure, TRANSIENT_TYPES) || causes(failure).anyMatch(FailureClassifier::fromConnectionPool)) {
            return Kind.TRANSIENT;
        }
        return databaseAnswers.getAsBoolean() ? Kind.POISON : Kind.TRANSIENT;
    }

    private static boolean has(Throwable failure, List<Class<? extends Throwable>> types) {
        return causes(failure).anyMatch(cause -> types.stream().anyMatch(type -> type.isInstance(cause)));
    }

    /** r2dbc-pool's own exceptions (acquire timeout, pool shut down) are about connections, never about data. */
    private static boolean fromConnectionPool(Throwable cause) {
        return cause.getClass().getName().startsWith("io.r2dbc.pool.");
    }

    private static Stream<Throwable> causes(Throwable failure) {
        return Stream.iterate(failure, cause -> cause != null, Throwable::getCause).limit(MAX_DEPTH);
    }
}
