package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

import com.example.messaging.support.StubConnectionFactory;
import com.example.service.autoconfigure.ServiceAutoConfiguration;
import com.example.service.faults.CrashPoints;

import io.r2dbc.spi.ConnectionFactory;

/** Each condition of the relay's auto-configuration, on and off, and the settings it refuses. */
class RelayAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ServiceAutoConfiguration.class, RelayAutoConfiguration.class))
            .withPropertyValues("service.database.create-if-missing=false", "messaging.relay.exchanges=order.events")
            .withBean("connectionFactory", ConnectionFactory.class, StubConnectionFactory::new);

    @Test
    void runsByDefaultWithItsJanitorHealthAndExchanges() {
        withBroker(CachingConnectionFactory.ConfirmType.CORRELATED, true).run(context -> {
            assertThat(context).hasSingleBean(OutboxRelay.class);
            assertThat(context).hasBean("outboxJanitor");
            assertThat(context.getBean("outboxHealthIndicator", HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.UNKNOWN);
            assertThat(context.getBean("relayExchanges", Declarables.class).getDeclarablesByType(TopicExchange.class))
                    .extracting(TopicExchange::getName, TopicExchange::isDurable)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("order.events", true));
            assertThat(context).doesNotHaveBean(ParkedEventsController.class);
        });
    }

    @Test
    void turnedOffItLeavesAHealthIndicatorThatSaysSoAndItsCrashPoints() {
        withBroker(CachingConnectionFactory.ConfirmType.CORRELATED, true)
                .withPropertyValues("messaging.relay.enabled=false", "faults.crash-at=relay.before-publish")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(OutboxRelay.class);
                    assertThat(context).doesNotHaveBean("outboxJanitor");
                    assertThat(context.getBean("outboxHealthIndicator", HealthIndicator.class).health().getDetails())
                            .containsEntry("reason", "messaging.relay.enabled=false");
                    assertThat(context.getBean(CrashPoints.class).armed()).containsOnlyKeys("relay.before-publish");
                });
    }

    @Test
    void refusesToRunWithoutPublisherConfirmsAndReturns() {
        withBroker(CachingConnectionFactory.ConfirmType.NONE, true).run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("spring.rabbitmq.publisher-confirm-type=correlated"));
        withBroker(CachingConnectionFactory.ConfirmType.CORRELATED, false).run(context -> assertThat(context).hasFailed());
    }

    @Test
    void refusesSettingsThatCannotWork() {
        withBroker(CachingConnectionFactory.ConfirmType.CORRELATED, true)
                .withPropertyValues("messaging.relay.confirm-timeout=30s", "messaging.relay.cycle-timeout=10s")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("messaging.relay.cycle-timeout must be longer than confirm-timeout"));
        // PostgreSQL would end the relay's transaction as idle while it waits for the confirms.
        withBroker(CachingConnectionFactory.ConfirmType.CORRELATED, true)
                .withPropertyValues("service.database.idle-in-transaction-timeout=20s")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("messaging.relay.cycle-timeout (PT30S) must be shorter than "
                                + "service.database.idle-in-transaction-timeout (PT20S)"));
    }

    @Test
    void noBrokerNoRelay() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ServiceAutoConfiguration.class, RelayAutoConfiguration.class))
                .withPropertyValues("service.database.create-if-missing=false")
                .withBean("connectionFactory", ConnectionFactory.class, StubConnectionFactory::new)
                .run(context -> assertThat(context).doesNotHaveBean(OutboxRelay.class));
    }

    @Test
    void aReactiveWebApplicationGetsTheParkedRowsEndpoints() {
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ServiceAutoConfiguration.class, RelayAutoConfiguration.class))
                .withPropertyValues("service.database.create-if-missing=false")
                .withBean("connectionFactory", ConnectionFactory.class, StubConnectionFactory::new)
                .withBean("rabbitConnectionFactory", org.springframework.amqp.rabbit.connection.ConnectionFactory.class,
                        () -> rabbit(CachingConnectionFactory.ConfirmType.CORRELATED, true))
                .run(context -> assertThat(context).hasSingleBean(ParkedEventsController.class));
    }

    private ApplicationContextRunner withBroker(CachingConnectionFactory.ConfirmType confirms, boolean returns) {
        return runner.withBean("rabbitConnectionFactory", org.springframework.amqp.rabbit.connection.ConnectionFactory.class,
                () -> rabbit(confirms, returns));
    }

    /** Connects only when used; the relay's first cycle fails on the database before it would. */
    private static CachingConnectionFactory rabbit(CachingConnectionFactory.ConfirmType confirms, boolean returns) {
        CachingConnectionFactory factory = new CachingConnectionFactory("localhost", 1);
        factory.setPublisherConfirmType(confirms);
        factory.setPublisherReturns(returns);
        return factory;
    }
}
