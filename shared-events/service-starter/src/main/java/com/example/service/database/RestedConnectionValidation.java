package com.example.service.database;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.reactivestreams.Publisher;
import org.springframework.boot.r2dbc.ConnectionFactoryDecorator;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.ValidationDepth;
import io.r2dbc.spi.Wrapped;
import reactor.core.publisher.Mono;

/**
 * Checks a pooled connection with a round trip before it is used only when it could have died unnoticed: when it
 * rested in the pool longer than {@code revalidateAfter}, or when its last use took longer than that (a use that
 * ended in a timeout, as on a connection that stopped answering without closing). A connection given back a moment
 * ago after a quick use answered a moment ago; checking it again would cost a round trip on every use (HikariCP
 * makes the same call with its 500 ms bypass window).
 *
 * <p>It decorates the driver's connection factory (Spring Boot's {@link ConnectionFactoryDecorator}), beneath the
 * pool: r2dbc-pool calls {@link ValidatedConnection#postAllocate()} each time it hands a connection out and
 * {@link ValidatedConnection#preRelease()} each time one comes back. A connection that does not answer within
 * {@code validationTimeout} fails {@code postAllocate}, so the pool drops it and tries another (acquire retry), as it
 * does with a failed validation query. The pool itself keeps its local check (is the connection still open).
 * {@code revalidateAfter} of zero checks every connection on every use.
 */
public final class RestedConnectionValidation implements ConnectionFactoryDecorator {

    private final Duration revalidateAfter;
    private final Duration validationTimeout;
    private final LongSupplier nanoTime;

    public RestedConnectionValidation(Duration revalidateAfter, Duration validationTimeout) {
        this(revalidateAfter, validationTimeout, System::nanoTime);
    }

    RestedConnectionValidation(Duration revalidateAfter, Duration validationTimeout, LongSupplier nanoTime) {
        if (revalidateAfter.isNegative()) {
            throw new IllegalArgumentException("revalidate-after must not be negative");
        }
        if (validationTimeout.isNegative() || validationTimeout.isZero()) {
            throw new IllegalArgumentException("validation-timeout must be positive");
        }
        this.revalidateAfter = revalidateAfter;
        this.validationTimeout = validationTimeout;
        this.nanoTime = nanoTime;
    }

    @Override
    public ConnectionFactory decorate(ConnectionFactory delegate) {
        return new Factory(delegate);
    }

    private final class Factory implements ConnectionFactory, Wrapped<ConnectionFactory> {

        private final ConnectionFactory delegate;

        Factory(ConnectionFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public Publisher<? extends Connection> create() {
            return Mono.from(delegate.create()).map(connection -> new ValidatedConnection(connection,
                    RestedConnectionValidation.this::needsCheck, RestedConnectionValidation.this::check, nanoTime));
        }

        @Override
        public ConnectionFactoryMetadata getMetadata() {
            return delegate.getMetadata();
        }

        @Override
        public ConnectionFactory unwrap() {
            return delegate;
        }
    }

    /** Whether a connection given back {@code restedNanos} ago after a use of {@code lastUseNanos} needs a check. */
    boolean needsCheck(long restedNanos, long lastUseNanos) {
        long window = revalidateAfter.toNanos();
        return restedNanos >= window || lastUseNanos >= window;
    }

    private Mono<Void> check(Connection connection, long restedNanos) {
        return Mono.from(connection.validate(ValidationDepth.REMOTE))
                .timeout(validationTimeout, Mono.just(false))
                .flatMap(valid -> valid ? Mono.<Void>empty()
                        : Mono.error(new R2dbcNonTransientResourceException("a pooled connection that rested "
                                + Duration.ofNanos(restedNanos).toMillis() + " ms did not answer within "
                                + validationTimeout.toMillis() + " ms: dropped")));
    }
}
