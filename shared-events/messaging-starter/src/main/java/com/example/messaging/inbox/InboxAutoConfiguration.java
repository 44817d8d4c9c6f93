package com.example.messaging.inbox;

import java.time.Duration;
import java.util.Optional;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.stream.binder.rabbit.properties.RabbitConsumerProperties;
import org.springframework.cloud.stream.config.BindingServiceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.messaging.outbox.OutboxAutoConfiguration;
import com.example.messaging.outbox.OutboxWriter;
import com.example.messaging.relay.OutboxHandOff;
import com.example.messaging.support.Janitor;
import com.example.service.autoconfigure.ServiceProperties;
import com.example.service.faults.CrashPoint;
import com.example.service.faults.CrashPoints;
import com.rabbitmq.client.Channel;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.r2dbc.spi.ConnectionFactory;

/**
 * Gives a service with R2DBC and the RabbitMQ binder that declares {@link EventHandler} beans its {@link Inbox}
 * (the function bean {@code inbox}) and the binding subscribed to what the handlers handle; every service with
 * a database the janitor of processed event ids and the inbox's crash points. With the binder, the names of the
 * queues the binding consumes from ({@link InboxQueues}).
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class, afterName = {
        "org.springframework.boot.r2dbc.autoconfigure.R2dbcTransactionManagerAutoConfiguration",
        "org.springframework.cloud.stream.config.BindingServiceConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ Channel.class, MeterRegistry.class, TransactionalOperator.class })
@ConditionalOnBean({ ConnectionFactory.class, ReactiveTransactionManager.class, OutboxWriter.class })
@EnableConfigurationProperties(InboxProperties.class)
public class InboxAutoConfiguration {

    /** service.database.lock-timeout's default, for an application without the service starter's settings. */
    private static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(5);

    @Bean
    CrashPoint consumerBeforeCommitCrashPoint() {
        return ConsumerCrashPoints.BEFORE_COMMIT;
    }

    @Bean
    CrashPoint consumerAfterCommitBeforeAckCrashPoint() {
        return ConsumerCrashPoints.AFTER_COMMIT_BEFORE_ACK;
    }

    /** Every service has processed_events (the shared migration), whether or not it consumes anything yet. */
    @Bean
    @ConditionalOnMissingBean(name = "processedEventsJanitor")
    Janitor processedEventsJanitor(ConnectionFactory connectionFactory, InboxProperties properties) {
        InboxProperties.Retention retention = properties.retention();
        ProcessedEvents processed = new ProcessedEvents(DatabaseClient.create(connectionFactory));
        return new Janitor("processed event ids older than " + retention.age(),
                () -> processed.forgetOlderThan(retention.age(), retention.batchSize()), retention.batchSize(),
                retention.interval(), properties.transactionTimeout());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(EventHandler.class)
    static class InboxConfiguration {

        @Bean
        @ConditionalOnMissingBean
        Inbox inbox(ObjectProvider<EventHandler<?>> handlers, ConnectionFactory connectionFactory,
                ReactiveTransactionManager transactionManager, OutboxWriter outbox, CrashPoints crashPoints,
                ObjectProvider<MeterRegistry> meterRegistry, InboxProperties properties,
                ObjectProvider<ServiceProperties> service, ObjectProvider<LockAhead> lockAhead,
                ObjectProvider<org.springframework.amqp.rabbit.connection.ConnectionFactory> rabbit,
                ObjectProvider<OutboxHandOff> handOff, Environment environment) {
            service.ifAvailable(settings -> properties.requireLongerThan(settings.database().statementTimeout()));
            // A client on the same ConnectionFactory joins the transaction the operator opens.
            DatabaseClient db = DatabaseClient.create(connectionFactory);
            InboxTransaction transaction = new InboxTransaction(new ProcessedEvents(db),
                    TransactionalOperator.create(transactionManager), outbox, crashPoints,
                    Optional.ofNullable(properties.batch().lockTimeout()),
                    lockAhead.getIfAvailable(LockAhead::nothing), OutboxHandOff.writer(handOff));
            Duration lockTimeout = service.getIfAvailable() != null ? service.getObject().database().lockTimeout()
                    : DEFAULT_LOCK_TIMEOUT;
            DatabaseProbe probe = new DatabaseProbe(db, properties.probeTimeout(), lockTimeout);
            FailureClassifier failures = new FailureClassifier(probe, probe::idleTransactionHoldsLocks);
            InboxMetrics metrics = new InboxMetrics(meterRegistry.getIfAvailable(() -> Metrics.globalRegistry));
            DeadLetterPublisher deadLetters = properties.batch().enabled() && rabbit.getIfAvailable() != null
                    ? new DeadLetterPublisher(rabbit.getObject(), InboxQueues.deadLetterExchange(environment),
                            properties.transactionTimeout())
                    : null;
            return new Inbox(handlers.orderedStream().toList(), transaction, failures, crashPoints, metrics, properties,
                    deadLetters);
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass({ BindingServiceProperties.class, RabbitConsumerProperties.class })
        static class BindingConfiguration {

            @Bean
            @ConditionalOnBean(BindingServiceProperties.class)
            InboxBinding inboxBinding(Inbox inbox, BindingServiceProperties bindings, InboxProperties properties) {
                return new InboxBinding(inbox, bindings, properties.batch());
            }

            /** What the dead-letter endpoints, gauges and health know this service's queues by. */
            @Bean
            @ConditionalOnBean(BindingServiceProperties.class)
            InboxQueues inboxQueues(InboxBinding inboxBinding) {
                return inboxBinding.queues();
            }
        }
    }
}
