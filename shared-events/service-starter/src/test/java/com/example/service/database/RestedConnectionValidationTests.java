package com.example.service.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Lifecycle;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.ValidationDepth;
import io.r2dbc.spi.Wrapped;
import reactor.core.publisher.Mono;

class RestedConnectionValidationTests {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final Connection driver = mock(Connection.class);

    @Test
    void aConnectionGivenBackAMomentAgoAfterAQuickUseIsHandedOutWithoutARoundTrip() {
        Lifecycle connection = connect(Duration.ofMillis(500));
        use(connection, Duration.ofMillis(5));
        advance(Duration.ofMillis(100));

        acquire(connection);

        verify(driver, never()).validate(any());
    }

    @Test
    void aFreshConnectionIsHandedOutWithoutARoundTrip() {
        acquire(connect(Duration.ofMillis(500)));

        verify(driver, never()).validate(any());
    }

    @Test
    void aConnectionThatRestedLongerThanTheWindowIsCheckedFirst() {
        Lifecycle connection = connect(Duration.ofMillis(500));
        use(connection, Duration.ofMillis(5));
        advance(Duration.ofMillis(600));
        answers(true);

        acquire(connection);

        verify(driver, times(1)).validate(ValidationDepth.REMOTE);
    }

    @Test
    void aConnectionWhoseLastUseWasSlowIsCheckedEvenWhenGivenBackJustNow() {
        // The use a stalled connection ends in: a timeout, long after it was handed out.
        Lifecycle connection = connect(Duration.ofMillis(500));
        use(connection, Duration.ofSeconds(3));
        answers(true);

        acquire(connection);

        verify(driver, times(1)).validate(ValidationDepth.REMOTE);
    }

    @Test
    void aWindowOfZeroChecksEveryUse() {
        Lifecycle connection = connect(Duration.ZERO);
        answers(true);

        use(connection, Duration.ofMillis(1));
        acquire(connection);

        verify(driver, times(2)).validate(ValidationDepth.REMOTE);
    }

    @Test
    void aConnectionThatDoesNotAnswerInTimeFailsSoThatThePoolDropsIt() {
        Lifecycle connection = connect(Duration.ofMillis(500));
        advance(Duration.ofSeconds(1));
        when(driver.validate(ValidationDepth.REMOTE)).thenAnswer(call -> Mono.never());

        assertThatThrownBy(() -> acquire(connection)).isInstanceOf(R2dbcNonTransientResourceException.class)
                .hasMessageContaining("did not answer within 50 ms");
    }

    @Test
    void aConnectionThatSaysItIsClosedFailsToo() {
        Lifecycle connection = connect(Duration.ofMillis(500));
        advance(Duration.ofSeconds(1));
        answers(false);

        assertThatThrownBy(() -> acquire(connection)).isInstanceOf(R2dbcNonTransientResourceException.class);
    }

    @Test
    void theDriverBehindTheDecoratorStaysReachable() {
        ConnectionFactory driverFactory = mock(ConnectionFactory.class);
        ConnectionFactory decorated = new RestedConnectionValidation(Duration.ofMillis(500), Duration.ofSeconds(2))
                .decorate(driverFactory);

        assertThat(((Wrapped<?>) decorated).unwrap()).isSameAs(driverFactory);
        assertThat(((Wrapped<?>) connect(Duration.ZERO)).unwrap()).isSameAs(driver);
    }

    private Lifecycle connect(Duration window) {
        RestedConnectionValidation validation = new RestedConnectionValidation(window, Duration.ofMillis(50), now::get);
        ConnectionFactory driverFactory = mock(ConnectionFactory.class);
        when(driverFactory.create()).thenAnswer(call -> Mono.just(driver));
        return (Lifecycle) Mono.from(validation.decorate(driverFactory).create()).block();
    }

    private void use(Lifecycle connection, Duration length) {
        acquire(connection);
        advance(length);
        Mono.from(connection.preRelease()).block();
    }

    private static void acquire(Lifecycle connection) {
        Mono.from(connection.postAllocate()).block(Duration.ofSeconds(5));
    }

    private void answers(boolean valid) {
        when(driver.validate(ValidationDepth.REMOTE)).thenAnswer(call -> Mono.just(valid));
    }

    private void advance(Duration duration) {
        now.addAndGet(duration.toNanos());
    }
}
