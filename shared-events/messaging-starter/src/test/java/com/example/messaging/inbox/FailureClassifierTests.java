package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
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
        assertThat(classifier.classify(new PessimisticLockingFailureException("deadlock detected"))).isEqualTo(Kind.TRANSIENT);
        assertThat(classifier.classify(Exceptions.propagate(new TimeoutException("transaction too slow"))))
                .isEqualTo(Kind.TRANSIENT);
        assertThat(probes).hasValue(0);
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
        });
    }
}
