package com.example.messaging.outbox;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.r2dbc.core.DatabaseClient;

import io.r2dbc.spi.ConnectionFactory;

/** Gives a service with an R2DBC database an {@link OutboxWriter}. */
@AutoConfiguration(afterName = "org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration")
@ConditionalOnBean(ConnectionFactory.class)
public class OutboxAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OutboxWriter outboxWriter(ConnectionFactory connectionFactory) {
        // A client on the same ConnectionFactory joins the caller's reactive transaction.
        return new OutboxWriter(DatabaseClient.create(connectionFactory));
    }
}
