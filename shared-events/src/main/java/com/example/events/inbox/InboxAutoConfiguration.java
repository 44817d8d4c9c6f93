package com.example.events.inbox;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.autoconfigure.SharedEventsAutoConfiguration;
import com.example.events.faults.CrashPoints;
import com.example.events.outbox.OutboxWriter;
import com.rabbitmq.client.Channel;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.r2dbc.spi.ConnectionFactory;

/** Gives a service with R2DBC and the RabbitMQ binder an {@link Inbox} over its {@link EventHandler} beans. */
@AutoConfiguration(after = SharedEventsAutoConfiguration.class, afterName = {
        "org.springframework.boot.r2dbc.autoconfigure.R2dbcTransactionManagerAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ Channel.class, MeterRegistry.class, TransactionalOperator.class })
@ConditionalOnBean({ ConnectionFactory.class, ReactiveTransactionManager.class, OutboxWriter.class })
@EnableConfigurationProperties(InboxProperties.class)
public class InboxAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Inbox inbox(ObjectProvider<EventHandler<?>> handlers, ConnectionFactory connectionFactory,
            ReactiveTransactionManager transactionManager, OutboxWriter outbox, CrashPoints crashPoints,
            ObjectProvider<MeterRegistry> meterRegistry, InboxProperties properties) {
        // A client on the same ConnectionFactory joins the transaction the operator opens.
        DatabaseClient db = DatabaseClient.create(connectionFactory);
        InboxTransaction transaction = new InboxTransaction(db, TransactionalOperator.create(transactionManager),
                outbox, crashPoints);
        FailureClassifier failures = new FailureClassifier(new DatabaseProbe(db, properties.probeTimeout()));
        InboxMetrics metrics = new InboxMetrics(meterRegistry.getIfAvailable(() -> Metrics.globalRegistry));
        return new Inbox(handlers.orderedStream().toList(), transaction, failures, crashPoints, metrics, properties);
    }

    @Bean
    @ConditionalOnMissingBean
    ProcessedEventsJanitor processedEventsJanitor(ConnectionFactory connectionFactory, InboxProperties properties) {
        return new ProcessedEventsJanitor(DatabaseClient.create(connectionFactory), properties.retention());
    }
}
