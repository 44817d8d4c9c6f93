package com.example.messaging.inbox;

import java.util.List;
import java.util.function.BooleanSupplier;

import com.example.events.EventFormatException;
import com.example.service.failure.Failures;

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

    private final BooleanSupplier databaseAnswers;

    FailureClassifier(BooleanSupplier databaseAnswers) {
        this.databaseAnswers = databaseAnswers;
    }

    Kind classify(Throwable failure) {
        if (Thread.currentThread().isInterrupted() || Failures.has(failure, List.of(InterruptedException.class))) {
            return Kind.INTERRUPTED;
        }
        if (Failures.has(failure, List.of(PoisonMessageException.class, EventFormatException.class))) {
            return Kind.POISON;
        }
        if (Failures.isInfrastructure(failure)) {
            return Kind.TRANSIENT;
        }
        return databaseAnswers.getAsBoolean() ? Kind.POISON : Kind.TRANSIENT;
    }
}
