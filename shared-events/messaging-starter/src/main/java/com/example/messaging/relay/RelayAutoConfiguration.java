package com.example.messaging.relay;

import java.time.Clock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.messaging.support.Janitor;
import com.example.service.autoconfigure.ServiceProperties;
import com.example.service.faults.CrashPoint;
import com.example.service.faults.CrashPoints;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Wrapped;

/**
 * Runs the outbox relay in every service that has a database and a broker, unless
 * {@code messaging.relay.enabled=false}. Adds the {@code outbox} health indicator (for the {@code messaging}
 * group) and, in a reactive web application, the operator endpoints under {@code /admin/outbox/parked}.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration",
        "org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration",
        "com.example.service.autoconfigure.ServiceAutoConfiguration" })
@ConditionalOnClass(RabbitTemplate.class)
@ConditionalOnBean({ ConnectionFactory.class, org.springframework.amqp.rabbit.connection.ConnectionFactory.class })
@EnableConfigurationProperties(RelayProperties.class)
public class RelayAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(RelayAutoConfiguration.class);

    /** Declared whether or not this process runs its relay: arming them is then simply without effect. */
    @Bean
    CrashPoint relayBeforePublishCrashPoint() {
        return RelayCrashPoints.BEFORE_PUBLISH;
    }

    @Bean
    CrashPoint relayAfterPublishBeforeMarkCrashPoint() {
        return RelayCrashPoints.AFTER_PUBLISH_BEFORE_MARK;
    }

    /**
     * The exchanges this service publishes to ({@code messaging.relay.exchanges}), declared as durable topic
     * exchanges as soon as the service connects to the broker, before its first event is relayed.
     */
    @Bean
    Declarables relayExchanges(RelayProperties properties) {
        return new Declarables(properties.exchanges().stream()
                .map(exchange -> new TopicExchange(exchange, true, false))
                .toList());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "messaging.relay.enabled", matchIfMissing = true)
    static class RelayConfiguration {

        @Bean
        OutboxStore outboxStore(ConnectionFactory connectionFactory) {
            return new OutboxStore(DatabaseClient.create(connectionFactory));
        }

        @Bean
        OutboxMonitor outboxMonitor(OutboxStore outboxStore) {
            return new OutboxMonitor(outboxStore);
        }

        @Bean
        Janitor outboxJanitor(OutboxStore outboxStore, RelayProperties properties) {
            RelayProperties.Retention retention = properties.retention();
            return new Janitor("sent outbox rows older than " + retention.age(),
                    () -> outboxStore.deleteSentBefore(retention.age(), retention.batchSize()), retention.batchSize(),
                    retention.interval(), properties.cycleTimeout());
        }

        @Bean
        NotificationListener outboxNotificationListener(ConnectionFactory connectionFactory,
                RelayProperties properties) {
            if (!properties.listener().enabled()) {
                return NotificationListener.off();
            }
            ConnectionFactory postgres = unpooledPostgres(connectionFactory);
            if (postgres == null) {
                log.warn("The outbox relay found no r2dbc-postgresql ConnectionFactory behind {}: it polls every {} "
                        + "instead of listening for notifications", connectionFactory, properties.pollInterval());
                return NotificationListener.off();
            }
            return new NotificationListener(postgres, properties.listener());
        }

        /** A listener bean, so that the connection factory's blocked/unblocked events reach it. */
        @Bean
        BrokerBlocks outboxBrokerBlocks() {
            return new BrokerBlocks();
        }

        @Bean
        OutboxPublisher outboxPublisher(
                org.springframework.amqp.rabbit.connection.ConnectionFactory rabbitConnectionFactory,
                BrokerBlocks brokerBlocks, RelayProperties properties) {
            RabbitTemplate template = relayTemplate(rabbitConnectionFactory);
            ExchangeDeclarer declarer = new ExchangeDeclarer(new RabbitAdmin(template), rabbitConnectionFactory,
                    properties.exchanges());
            return new OutboxPublisher(template, declarer, properties.confirmTimeout(), Clock.systemUTC(),
                    brokerBlocks);
        }

        @Bean
        RelayMetrics relayMetrics(ObjectProvider<MeterRegistry> meterRegistry, OutboxMonitor outboxMonitor) {
            return new RelayMetrics(meterRegistry.getIfAvailable(() -> Metrics.globalRegistry), outboxMonitor);
        }

        @Bean
        OutboxRelay outboxRelay(ConnectionFactory connectionFactory, OutboxStore outboxStore,
                OutboxPublisher outboxPublisher, OutboxMonitor outboxMonitor,
                NotificationListener outboxNotificationListener, CrashPoints crashPoints, RelayMetrics relayMetrics,
                RelayProperties properties, ObjectProvider<ServiceProperties> service) {
            service.ifAvailable(settings -> properties.requireShorterThan(settings.database().idleInTransactionTimeout()));
            RelayCycle cycle = new RelayCycle(outboxStore, outboxPublisher,
                    TransactionalOperator.create(new R2dbcTransactionManager(connectionFactory)), crashPoints,
                    properties.backoff(), relayMetrics, properties, Clock.systemUTC());
            return new OutboxRelay(cycle, outboxStore, outboxNotificationListener, outboxMonitor, properties);
        }

        /** For writers that publish their rows after the commit themselves; off unless configured. */
        @Bean
        OutboxHandOff outboxHandOff(OutboxStore outboxStore, OutboxPublisher outboxPublisher, OutboxRelay outboxRelay,
                CrashPoints crashPoints, RelayMetrics relayMetrics, RelayProperties properties) {
            return new OutboxHandOff(outboxStore, outboxPublisher, outboxRelay, crashPoints, relayMetrics, properties);
        }

        /**
         * The relay's own template rather than the application's: it must publish with
         * {@code mandatory} whatever {@code spring.rabbitmq.template.*} says, and on the publisher
         * connection, so that a broker blocking publishers (resource alarm) does not also stall the
         * service's consumers.
         */
        private static RabbitTemplate relayTemplate(
                org.springframework.amqp.rabbit.connection.ConnectionFactory rabbitConnectionFactory) {
            org.springframework.amqp.rabbit.connection.ConnectionFactory publishing =
                    rabbitConnectionFactory.getPublisherConnectionFactory() != null
                            ? rabbitConnectionFactory.getPublisherConnectionFactory() : rabbitConnectionFactory;
            if (!publishing.isPublisherConfirms() || !publishing.isPublisherReturns()) {
                throw new IllegalStateException("The outbox relay marks a row sent only on the broker's confirm and "
                        + "no return: set spring.rabbitmq.publisher-confirm-type=correlated and "
                        + "spring.rabbitmq.publisher-returns=true (or messaging.relay.enabled=false)");
            }
            RabbitTemplate template = new RabbitTemplate(rabbitConnectionFactory);
            template.setMandatory(true);
            template.setUsePublisherConnection(true);
            // Returns are read from each message's CorrelationData; without a callback the template warns on each.
            template.setReturnsCallback(returned -> { });
            return template;
        }

        /** LISTEN needs a connection of its own: the driver's factory behind the pool (and any decorators). */
        private static ConnectionFactory unpooledPostgres(ConnectionFactory connectionFactory) {
            Object candidate = connectionFactory;
            for (int depth = 0; depth < 10 && candidate != null; depth++) {
                if (candidate instanceof PostgresqlConnectionFactory postgres) {
                    return postgres;
                }
                candidate = candidate instanceof Wrapped<?> wrapped ? wrapped.unwrap() : null;
            }
            return null;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "messaging.relay.enabled", matchIfMissing = true)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("outbox")
    static class RelayHealthConfiguration {

        @Bean
        HealthIndicator outboxHealthIndicator(OutboxMonitor outboxMonitor,
                NotificationListener outboxNotificationListener, RelayProperties properties) {
            return new OutboxHealthIndicator(outboxMonitor, outboxNotificationListener,
                    properties.health().maxUnsentAge());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "messaging.relay.enabled", havingValue = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("outbox")
    static class DisabledRelayHealthConfiguration {

        /** Keeps the messaging group's {@code outbox} member resolvable, and says why there are no figures. */
        @Bean
        HealthIndicator outboxHealthIndicator() {
            Health disabled = Health.unknown().withDetail("reason", "messaging.relay.enabled=false").build();
            return () -> disabled;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "messaging.relay.enabled", matchIfMissing = true)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class ParkedEventsEndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ParkedEventsController parkedEventsController(OutboxStore outboxStore, OutboxRelay outboxRelay) {
            return new ParkedEventsController(outboxStore, outboxRelay);
        }
    }
}
