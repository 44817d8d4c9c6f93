package com.example.service.database;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.reactivestreams.Publisher;

import io.r2dbc.spi.Batch;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionMetadata;
import io.r2dbc.spi.IsolationLevel;
import io.r2dbc.spi.Lifecycle;
import io.r2dbc.spi.Statement;
import io.r2dbc.spi.TransactionDefinition;
import io.r2dbc.spi.ValidationDepth;
import io.r2dbc.spi.Wrapped;
import reactor.core.publisher.Mono;

/**
 * A driver connection that remembers when it was last handed out and given back, so that the pool checks it only
 * when it may have died unnoticed ({@link RestedConnectionValidation}). Everything else goes to the driver's
 * connection unchanged.
 */
final class ValidatedConnection implements Connection, Lifecycle, Wrapped<Connection> {

    /** Decides from the time rested and the length of the last use whether the connection gets a check. */
    interface Policy {
        boolean needsCheck(long restedNanos, long lastUseNanos);
    }

    /** The round trip that proves the connection answers; fails when it does not. */
    interface Check {
        Mono<Void> run(Connection connection, long restedNanos);
    }

    private final Connection delegate;
    private final Policy policy;
    private final Check check;
    private final LongSupplier nanoTime;
    // Written and read only by whoever holds the connection (the pool hands it to one caller at a time).
    private long acquiredAt;
    private long releasedAt;
    private long lastUse;

    ValidatedConnection(Connection delegate, Policy policy, Check check, LongSupplier nanoTime) {
        this.delegate = delegate;
        this.policy = policy;
        this.check = check;
        this.nanoTime = nanoTime;
        // Just connected: it answered the handshake a moment ago.
        this.releasedAt = nanoTime.getAsLong();
    }

    @Override
    public Publisher<Void> postAllocate() {
        return Mono.defer(() -> {
            long now = nanoTime.getAsLong();
            long rested = now - releasedAt;
            Mono<Void> ready = policy.needsCheck(rested, lastUse) ? check.run(delegate, rested) : Mono.empty();
            return ready.doOnSuccess(done -> acquiredAt = nanoTime.getAsLong());
        });
    }

    @Override
    public Publisher<Void> preRelease() {
        return Mono.fromRunnable(() -> {
            releasedAt = nanoTime.getAsLong();
            lastUse = releasedAt - acquiredAt;
        });
    }

    @Override
    public Connection unwrap() {
        return delegate;
    }

    @Override
    public Publisher<Void> beginTransaction() {
        return delegate.beginTransaction();
    }

    @Override
    public Publisher<Void> beginTransaction(TransactionDefinition definition) {
        return delegate.beginTransaction(definition);
    }

    @Override
    public Publisher<Void> close() {
        return delegate.close();
    }

    @Override
    public Publisher<Void> commitTransaction() {
        return delegate.commitTransaction();
    }

    @Override
    public Batch createBatch() {
        return delegate.createBatch();
    }

    @Override
    public Publisher<Void> createSavepoint(String name) {
        return delegate.createSavepoint(name);
    }

    @Override
    public Statement createStatement(String sql) {
        return delegate.createStatement(sql);
    }

    @Override
    public boolean isAutoCommit() {
        return delegate.isAutoCommit();
    }

    @Override
    public ConnectionMetadata getMetadata() {
        return delegate.getMetadata();
    }

    @Override
    public IsolationLevel getTransactionIsolationLevel() {
        return delegate.getTransactionIsolationLevel();
    }

    @Override
    public Publisher<Void> releaseSavepoint(String name) {
        return delegate.releaseSavepoint(name);
    }

    @Override
    public Publisher<Void> rollbackTransaction() {
        return delegate.rollbackTransaction();
    }

    @Override
    public Publisher<Void> rollbackTransactionToSavepoint(String name) {
        return delegate.rollbackTransactionToSavepoint(name);
    }

    @Override
    public Publisher<Void> setAutoCommit(boolean autoCommit) {
        return delegate.setAutoCommit(autoCommit);
    }

    @Override
    public Publisher<Void> setLockWaitTimeout(Duration timeout) {
        return delegate.setLockWaitTimeout(timeout);
    }

    @Override
    public Publisher<Void> setStatementTimeout(Duration timeout) {
        return delegate.setStatementTimeout(timeout);
    }

    @Override
    public Publisher<Void> setTransactionIsolationLevel(IsolationLevel isolationLevel) {
        return delegate.setTransactionIsolationLevel(isolationLevel);
    }

    @Override
    public Publisher<Boolean> validate(ValidationDepth depth) {
        return delegate.validate(depth);
    }
}
