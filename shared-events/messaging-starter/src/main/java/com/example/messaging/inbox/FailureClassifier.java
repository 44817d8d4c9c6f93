package com.example.messaging.inbox;

import java.util.List;
import java.util.function.BooleanSupplier;

import com.example.events.EventFormatException;
import com.example.service.failure.Failures;

/**
 * Decides what a failed inbox transaction means. Poison goes to the dead-letter queue; a transient
 * failure is retried until it goes away; a timed-out attempt is retried a bounded number of times; an
 * interruption means the listener is being stopped.
 *
 * <p>A timeout (PostgreSQL's statement or lock timeout, SQLSTATE 57014 or 55P03, or the inbox's own
 * transaction timeout) is judged by asking the database: if it does not answer, the timeout is a symptom of
 * an outage and transient like one; if it answers, the transaction could not finish against a working
 * database (a lock held for long, a statement too slow for the data), which may pass or may recur on every
 * attempt, so the inbox counts it. A lock timeout while another session of the database sits idle inside a
 * transaction (longer than the lock timeout) is not counted: that session holds the locks and does nothing with
 * them (a frozen or stopped instance, a session left open), which is an infrastructure failure, not the event's;
 * the event waits until the session moves or PostgreSQL ends it ({@code idle_in_transaction_session_timeout}).
 * Other known infrastructure failures (connections refused or lost, pool
 * exhausted, deadlocks and serialization failures) are transient by type: a deadlock or serialization
 * failure ends in a rollback at once, and the next attempt usually goes through. Any other failure is judged
 * by asking the database: if it does not answer, the failure is transient whatever its type (a dying server
 * produces surprising exceptions); if it answers, the same transaction will fail the same way again, so the
 * message is poison.
 */
final class FailureClassifier {

    enum Kind {
        POISON, TRANSIENT, TIMED_OUT, BLOCKED_BY_IDLE_TRANSACTION, INTERRUPTED
    }

    private final BooleanSupplier databaseAnswers;
    private final BooleanSupplier idleTransactionHoldsLocks;

    FailureClassifier(BooleanSupplier databaseAnswers, BooleanSupplier idleTransactionHoldsLocks) {
        this.databaseAnswers = databaseAnswers;
        this.idleTransactionHoldsLocks = idleTransactionHoldsLocks;
    }

    Kind classify(Throwable failure) {
        if (isInterruption(failure)) {
            return Kind.INTERRUPTED;
        }
        if (Failures.has(failure, List.of(PoisonMessageException.class, EventFormatException.class))) {
            return Kind.POISON;
        }
        if (Failures.isLockTimeout(failure) && idleTransactionHoldsLocks.getAsBoolean()) {
            return Kind.BLOCKED_BY_IDLE_TRANSACTION;
        }
        if (Failures.isDatabaseTimeout(failure) || Failures.has(failure, List.of(InboxTimeoutException.class))) {
            return databaseAnswers.getAsBoolean() ? Kind.TIMED_OUT : Kind.TRANSIENT;
        }
        if (Failures.isInfrastructure(failure)) {
            return Kind.TRANSIENT;
        }
        return databaseAnswers.getAsBoolean() ? Kind.POISON : Kind.TRANSIENT;
    }

    /** The listener is being stopped: its thread was interrupted, whatever the failure says. */
    static boolean isInterruption(Throwable failure) {
        return Thread.currentThread().isInterrupted() || Failures.has(failure, List.of(InterruptedException.class));
    }
}
