package com.example.service.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the service starter ({@code service.*}). The connection URLs of R2DBC and Flyway are built from
 * {@code service.database.host}, {@code port} and {@code name} in the shared defaults; the standard Spring Boot
 * properties ({@code spring.r2dbc.url}, {@code spring.flyway.url}) still override them. The statement and lock
 * timeouts go on every R2DBC session, whichever URL it connects to.
 *
 * @param database the service's own PostgreSQL database
 * @param api      how the description of the service's HTTP API generated from its code names it (test-support)
 */
@ConfigurationProperties("service")
public record ServiceProperties(@DefaultValue Database database, @DefaultValue Api api) {

    /**
     * @param host             PostgreSQL host
     * @param port             PostgreSQL port
     * @param name             the database this service owns; each service sets its own
     * @param createIfMissing  create the database at start-up when it does not exist yet, before Flyway migrates it
     * @param statementTimeout the longest one statement of the service's R2DBC sessions may run before PostgreSQL
     *                         cancels it ({@code statement_timeout}); Flyway's migrations keep the server's default
     * @param lockTimeout      the longest one statement of the service's R2DBC sessions may wait for a lock before
     *                         PostgreSQL cancels it ({@code lock_timeout}); at most the statement timeout
     * @param idleInTransactionTimeout PostgreSQL ends a session of the service that sits idle inside a transaction
     *                         this long ({@code idle_in_transaction_session_timeout}), releasing its locks: a frozen
     *                         or stopped instance does not block the others for longer; above the relay's cycle
     * @param revalidateAfter  a pooled connection is checked with a round trip before it is handed out when it rested
     *                         in the pool this long, or when its last use took this long; 0 checks it on every use
     * @param validationTimeout how long that check may take before the connection is dropped as dead
     * @param planCacheMode    how PostgreSQL plans the service's prepared statements ({@code plan_cache_mode}):
     *                         {@code force_generic_plan} (the default) plans each statement once per session;
     *                         {@code auto} is PostgreSQL's own default, which plans a statement with an array
     *                         parameter ({@code id = any($1)}) again on every call
     */
    public record Database(@DefaultValue("localhost") String host, @DefaultValue("5432") int port, String name,
            @DefaultValue("true") boolean createIfMissing, @DefaultValue("10s") Duration statementTimeout,
            @DefaultValue("5s") Duration lockTimeout, @DefaultValue("60s") Duration idleInTransactionTimeout,
            @DefaultValue("500ms") Duration revalidateAfter,
            @DefaultValue("2s") Duration validationTimeout,
            @DefaultValue("force_generic_plan") String planCacheMode, @DefaultValue("true") boolean binaryResults) {

        /** The values PostgreSQL accepts for {@code plan_cache_mode}. */
        public static final List<String> PLAN_CACHE_MODES = List.of("auto", "force_generic_plan", "force_custom_plan");

        public Database {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("service.database.port must be between 1 and 65535, was " + port);
            }
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("service.database.host must not be empty");
            }
            requireMilliseconds(statementTimeout, "service.database.statement-timeout");
            requireMilliseconds(lockTimeout, "service.database.lock-timeout");
            requireMilliseconds(idleInTransactionTimeout, "service.database.idle-in-transaction-timeout");
            if (revalidateAfter == null || revalidateAfter.isNegative()) {
                throw new IllegalArgumentException("service.database.revalidate-after must not be negative");
            }
            requireMilliseconds(validationTimeout, "service.database.validation-timeout");
            if (!PLAN_CACHE_MODES.contains(planCacheMode)) {
                throw new IllegalArgumentException("service.database.plan-cache-mode must be one of "
                        + PLAN_CACHE_MODES + ", was " + planCacheMode);
            }
            // PostgreSQL would accept it, but the statement timeout would always cut a longer lock wait first.
            if (lockTimeout.compareTo(statementTimeout) > 0) {
                throw new IllegalArgumentException("service.database.lock-timeout (" + lockTimeout
                        + ") must not exceed service.database.statement-timeout (" + statementTimeout + ")");
            }
        }

        /** PostgreSQL counts in milliseconds, and 0 switches a timeout off: a statement could wait forever. */
        private static void requireMilliseconds(Duration value, String name) {
            if (value == null || value.toMillis() < 1) {
                throw new IllegalArgumentException(name + " must be at least 1ms");
            }
        }
    }

    /**
     * @param title       the API's name, e.g. {@code Orders API}; the application's name when not set
     * @param description what the API is for, in a few sentences
     * @param version     the API's version: the service's build version
     */
    public record Api(String title, @DefaultValue("") String description, @DefaultValue("0") String version) {
    }
}
