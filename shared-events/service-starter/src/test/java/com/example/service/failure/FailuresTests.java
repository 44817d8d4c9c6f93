package com.example.service.failure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.PessimisticLockingFailureException;

import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcRollbackException;
import io.r2dbc.spi.R2dbcTransientResourceException;

class FailuresTests {

    @Test
    void aStatementOrLockTimeoutIsADatabaseTimeoutAndStillInfrastructure() {
        // r2dbc-postgresql raises both SQLSTATEs as non-transient resource exceptions; Spring wraps them.
        Throwable statementTimeout = new DataAccessResourceFailureException("update stock",
                new R2dbcNonTransientResourceException("canceling statement due to statement timeout", "57014"));
        Throwable lockTimeout = new DataAccessResourceFailureException("update stock",
                new R2dbcNonTransientResourceException("canceling statement due to lock timeout", "55P03"));

        assertThat(Failures.isDatabaseTimeout(statementTimeout)).isTrue();
        assertThat(Failures.isDatabaseTimeout(lockTimeout)).isTrue();
        assertThat(Failures.isInfrastructure(statementTimeout)).isTrue();
        assertThat(Failures.isInfrastructure(lockTimeout)).isTrue();
    }

    @Test
    void deadlocksSerializationFailuresAndOutagesAreNoDatabaseTimeouts() {
        assertThat(Failures.isDatabaseTimeout(new PessimisticLockingFailureException("deadlock",
                new R2dbcRollbackException("deadlock detected", "40P01")))).isFalse();
        assertThat(Failures.isDatabaseTimeout(new R2dbcRollbackException("could not serialize access", "40001")))
                .isFalse();
        assertThat(Failures.isDatabaseTimeout(new R2dbcTransientResourceException("Connection refused"))).isFalse();
        assertThat(Failures.isDatabaseTimeout(new IllegalStateException(new TimeoutException("pool")))).isFalse();
    }
}
