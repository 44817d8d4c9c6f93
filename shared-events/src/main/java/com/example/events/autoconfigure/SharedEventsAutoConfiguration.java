package com.example.events.autoconfigure;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.r2dbc.core.DatabaseClient;

import com.example.events.EventJson;
import com.example.events.database.DatabaseCreator;
import com.example.events.faults.CrashPoints;
import com.example.events.outbox.OutboxWriter;

import io.r2dbc.spi.ConnectionFactory;

/** Wires the shared mechanics into every service that has shared-events on its class path. */
@AutoConfiguration(afterName = "org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration", beforeName = {
        "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration" })
public class SharedEventsAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SharedEventsAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    CrashPoints crashPoints(Environment environment) {
        CrashPoints crashPoints = CrashPoints.parse(environment.getProperty("faults.crash-at", ""));
        if (crashPoints.isArmed()) {
            log.warn("FAULT INJECTION IS ON: this process will halt (exit code {}) at crash points {}",
                    CrashPoints.EXIT_CODE, crashPoints.armed());
        }
        return crashPoints;
    }

    @Bean
    @ConditionalOnBean(ConnectionFactory.class)
    @ConditionalOnMissingBean
    OutboxWriter outboxWriter(ConnectionFactory connectionFactory) {
        // A client on the same ConnectionFactory joins the caller's reactive transaction.
        return new OutboxWriter(DatabaseClient.create(connectionFactory));
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
    @ConditionalOnClass(FlywayMigrationStrategy.class)
    @ConditionalOnProperty(name = "app.database.create-if-missing", matchIfMissing = true)
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
