package com.example.service.autoconfigure;

import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.r2dbc.ConnectionFactoryDecorator;
import org.springframework.boot.r2dbc.autoconfigure.ConnectionFactoryOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import com.example.events.EventJson;
import com.example.service.database.DatabaseCreator;
import com.example.service.database.RestedConnectionValidation;
import com.example.service.faults.CrashPoint;
import com.example.service.faults.CrashPoints;

import io.r2dbc.postgresql.PostgresqlConnectionFactoryProvider;
import io.r2dbc.spi.ConnectionFactoryOptions;

/**
 * What every service gets from the service starter besides its web layer: the shared JSON mapping, crash
 * points (armed from {@code faults.crash-at} among the points declared as {@link CrashPoint} beans by the
 * modules that own them), the database bootstrap, and the timeouts of the service's database sessions.
 */
@AutoConfiguration(beforeName = { "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration" })
@EnableConfigurationProperties({ ServiceProperties.class, FaultProperties.class })
public class ServiceAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ServiceAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    CrashPoints crashPoints(FaultProperties faults, ObjectProvider<CrashPoint> declared) {
        List<CrashPoint> points = declared.orderedStream().toList();
        CrashPoints crashPoints = CrashPoints.parse(faults.crashAt(), points);
        if (crashPoints.isArmed()) {
            log.warn("FAULT INJECTION IS ON: this process will halt (exit code {}) at crash points {}",
                    CrashPoints.EXIT_CODE, crashPoints.armed());
        }
        return crashPoints;
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(JsonMapperBuilderCustomizer.class)
    static class JsonConfiguration {

        /** Web requests, responses and events all use {@link EventJson}'s settings. */
        @Bean
        JsonMapperBuilderCustomizer sharedJsonSettings() {
            return EventJson::configure;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ConnectionFactoryOptionsBuilderCustomizer.class)
    static class DatabaseSessionConfiguration {

        /**
         * Every R2DBC session starts with {@code statement_timeout}, {@code lock_timeout} and
         * {@code idle_in_transaction_session_timeout} (the driver sends them
         * when it connects, so they hold for pooled connections and cost no round trip): a statement that runs or
         * waits too long is cancelled by PostgreSQL itself, with its locks, instead of holding a connection until the
         * caller gives up. Flyway connects over JDBC with sessions of its own and keeps the server's defaults, because
         * a migration may legitimately take long.
         *
         * <p>And with {@code plan_cache_mode}: the driver prepares each statement once per connection, and under
         * PostgreSQL's {@code auto} mode a statement whose parameter is an array ({@code where id = any($1)}: the
         * relay's mark, a batch's read-ahead, the stock of an order's skus) is planned again on every call, because
         * a plan for an array of unknown length looks dearer than one for the array at hand. Every statement of these
         * services finds its rows by key, so one generic plan per statement and session is the plan they need
         * (docs/performance/levers.md, seventeenth round).
         *
         * <p>And with results in PostgreSQL's binary format ({@code service.database.binary-results}): in its text
         * format every timestamp of an answer is parsed from its text with a {@code DateTimeFormatter} (about a
         * sixteenth of the memory a replayed {@code POST /orders} allocated) and every number from its digits; in
         * binary a timestamp is eight bytes of microseconds (docs/performance/levers.md, thirty-third round).
         */
        @Bean
        ConnectionFactoryOptionsBuilderCustomizer databaseSessionTimeouts(ServiceProperties properties) {
            ServiceProperties.Database database = properties.database();
            return options -> options.option(ConnectionFactoryOptions.STATEMENT_TIMEOUT, database.statementTimeout())
                    .option(ConnectionFactoryOptions.LOCK_WAIT_TIMEOUT, database.lockTimeout())
                    .option(PostgresqlConnectionFactoryProvider.OPTIONS, Map.of("idle_in_transaction_session_timeout",
                            Long.toString(database.idleInTransactionTimeout().toMillis()),
                            "plan_cache_mode", database.planCacheMode()))
                    .option(PostgresqlConnectionFactoryProvider.FORCE_BINARY, database.binaryResults());
        }

        /**
         * A pooled connection is checked with a round trip only when it may have died unnoticed (it rested, or its
         * last use was slow), not before every use: see {@link RestedConnectionValidation}.
         */
        @Bean
        @ConditionalOnClass(ConnectionFactoryDecorator.class)
        ConnectionFactoryDecorator restedConnectionValidation(ServiceProperties properties) {
            ServiceProperties.Database database = properties.database();
            return new RestedConnectionValidation(database.revalidateAfter(), database.validationTimeout());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(FlywayMigrationStrategy.class)
    @ConditionalOnBooleanProperty(name = "service.database.create-if-missing", matchIfMissing = true)
    static class DatabaseBootstrapConfiguration {

        /** Creates the service's database if needed, then migrates it: a fresh server needs no manual step. */
        @Bean
        @ConditionalOnMissingBean
        FlywayMigrationStrategy createDatabaseThenMigrate(Environment environment) {
            return flyway -> {
                String url = environment.getProperty("spring.flyway.url");
                if (url != null && url.startsWith("jdbc:postgresql:")) {
                    DatabaseCreator.ensureExists(url, environment.getProperty("spring.flyway.user"),
                            environment.getProperty("spring.flyway.password"));
                }
                flyway.migrate();
            };
        }
    }
}
