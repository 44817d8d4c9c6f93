package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.transaction.CannotCreateTransactionException;

import com.example.events.EventFormatException;
import com.example.messaging.inbox.FailureClassifier.Kind;

import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcRollbackException;
import io.r2dbc.spi.R2dbcTimeoutException;
import io.r2dbc.spi.R2dbcTransientException;
import reactor.core.Exceptions;

class FailureClassifierTests {

    private final AtomicInteger probes = new AtomicInteger();

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void poisonIsPoisonWithoutAskingTheDatabase() {
        FailureClassifier classifier = classifier(false);

        assertThat(classifier.classify(new PoisonMessageException("no sku_ids"))).isEqualTo(Kind.POISON);
        assertThat(classifier.classify(new IllegalStateException(new EventFormatException("bad")))).isEqualTo(Kind.POISON);
        assertThat(probes).hasValue(0);
    }

    @Test
    void infrastructureFailuresAreTransientByTypeWithoutAskingTheDatabase() {
        FailureClassifier classifier = classifier(true);

        assertThat(classifier.classify(new CannotCreateTransactionException("no connection",
                new R2dbcNonTransientResourceException("refused", new ConnectException())))).isEqualTo(Kind.TRANSIENT);
        assertThat(classifier.classify(new DataAccessResourceFailureException("gone"))).isEqualTo(Kind.TRANSIENT);
        assertThat(classifier.classify(new PessimisticLockingFailureException("deadlock detected",
                new R2dbcTransientException("deadlock detected", "40P01") { }))).isEqualTo(Kind.TRANSIENT);
        assertThat(classifier.classify(new PessimisticLockingFailureException("could not serialize access",
                new R2dbcRollbackException("could not serialize access", "40001")))).isEqualTo(Kind.TRANSIENT);
        // r2dbc-pool's acquire timeout: the pool had no connection to give, the database was not asked.
        assertThat(classifier.classify(new DataAccessResourceFailureException("Failed to obtain R2DBC Connection",
                new R2dbcTimeoutException("Connection acquisition timed out after 5000ms", new TimeoutException()))))
                .isEqualTo(Kind.TRANSIENT);
        assertThat(probes).hasValue(0);
    }

    @Test
    void aStatementLockOrTransactionTimeoutIsATimeoutWhileTheDatabaseAnswersAndTransientWhileItDoesNot() {
        Throwable statementTimeout = new DataAccessResourceFailureException("update stock",
                new R2dbcNonTransientResourceException("canceling statement due to statement timeout", "57014"));
        Throwable lockTimeout = new DataAccessResourceFailureException("update stock",
                new R2dbcNonTransientResourceException("canceling statement due to lock timeout", "55P03"));
        Throwable transactionTimeout = Exceptions.propagate(new InboxTimeoutException(Duration.ofSeconds(30)));

        for (Throwable timeout : List.of(statementTimeout, lockTimeout, transactionTimeout)) {
            assertThat(classifier(true).classify(timeout)).as(timeout.toString()).isEqualTo(Kind.TIMED_OUT);
            assertThat(classifier(false).classify(timeout)).as(timeout.toString()).isEqualTo(Kind.TRANSIENT);
        }
        assertThat(probes).hasValue(6);
    }

    /** A session idle inside its transaction holds the locks: the event is not to blame, only a lock timeout is excused. */
    @Test
    void aLockTimeoutWhileAnIdleTransactionHoldsLocksIsNotTheEventsFault() {
        Throwable lockTimeout = new DataAccessResourceFailureException("update stock",
                new R2dbcNonTransientResourceException("canceling statement due to lock timeout", "55P03"));
        Throwable statementTimeout = new DataAccessResourceFailureException("update stock",
                new R2dbcNonTransientResourceException("canceling statement due to statement timeout", "57014"));
        FailureClassifier idlePeer = new FailureClassifier(() -> true, () -> true);

        assertThat(idlePeer.classify(lockTimeout)).isEqualTo(Kind.BLOCKED_BY_IDLE_TRANSACTION);
        assertThat(idlePeer.classify(statementTimeout)).isEqualTo(Kind.TIMED_OUT);
        assertThat(idlePeer.classify(Exceptions.propagate(new InboxTimeoutException(Duration.ofSeconds(30)))))
                .isEqualTo(Kind.TIMED_OUT);
    }

    @Test
    void anyOtherFailureIsPoisonWhileTheDatabaseAnswersAndTransientWhileItDoesNot() {
        DuplicateKeyException bug = new DuplicateKeyException("unique violation");

        assertThat(classifier(true).classify(bug)).isEqualTo(Kind.POISON);
        assertThat(classifier(false).classify(new IllegalStateException("connection reset in an odd place")))
                .isEqualTo(Kind.TRANSIENT);
        assertThat(probes).hasValue(2);
    }

    @Test
    void anInterruptionMeansTheListenerIsStopping() {
        assertThat(classifier(true).classify(Exceptions.propagate(new InterruptedException()))).isEqualTo(Kind.INTERRUPTED);
        Thread.currentThread().interrupt();
        assertThat(classifier(true).classify(new DataAccessResourceFailureException("gone"))).isEqualTo(Kind.INTERRUPTED);
    }

    private FailureClassifier classifier(boolean databaseAnswers) {
        return new FailureClassifier(() -> {
            probes.incrementAndGet();
            return databaseAnswers;
        }, () -> false);
    }
}
