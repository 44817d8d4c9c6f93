package com.example.messaging.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

import com.example.messaging.inbox.InboxQueues;

/** Each condition of the dead letters' auto-configuration, on and off, and the settings it refuses. */
class DeadLetterAutoConfigurationTests {

    private static final InboxQueues QUEUES = new InboxQueues(List.of("order.events.inventory-service"));

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DeadLetterAutoConfiguration.class))
            .withBean("rabbitConnectionFactory", org.springframework.amqp.rabbit.connection.ConnectionFactory.class,
                    DeadLetterAutoConfigurationTests::rabbit);

    @Test
    void aBrokerGetsTheMonitorOfTheInboxsDeadLetterQueuesItsGaugesAndItsHealthIndicator() {
        runner.withBean(InboxQueues.class, () -> QUEUES).run(context -> {
            assertThat(context.getBean(DeadLetterMonitor.class).queues())
                    .containsExactly("order.events.inventory-service.dlq");
            assertThat(context).hasSingleBean(DeadLetterBroker.class);
            assertThat(context).hasSingleBean(DeadLetterMetrics.class);
            assertThat(context.getBean("deadLettersHealthIndicator", HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.UNKNOWN);
            assertThat(context).doesNotHaveBean(DeadLettersController.class);
        });
    }

    @Test
    void aServiceThatConsumesNothingStillHasTheHealthIndicatorWithoutQueues() {
        runner.run(context -> {
            assertThat(context.getBean(DeadLetterMonitor.class).queues()).isEmpty();
            assertThat(context.getBean("deadLettersHealthIndicator", HealthIndicator.class).health().getStatus())
                    .isEqualTo(Status.UP);
        });
    }

    @Test
    void aReactiveWebApplicationGetsTheOperatorEndpoints() {
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DeadLetterAutoConfiguration.class))
                .withBean("rabbitConnectionFactory", org.springframework.amqp.rabbit.connection.ConnectionFactory.class,
                        DeadLetterAutoConfigurationTests::rabbit)
                .withBean(InboxQueues.class, () -> QUEUES)
                .run(context -> assertThat(context).hasSingleBean(DeadLettersController.class));
    }

    @Test
    void noBrokerNoDeadLetters() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DeadLetterAutoConfiguration.class))
                .withBean(InboxQueues.class, () -> QUEUES)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(DeadLetterMonitor.class);
                    assertThat(context).doesNotHaveBean("deadLettersHealthIndicator");
                });
    }

    @Test
    void theHealthIndicatorCanBeTurnedOff() {
        runner.withPropertyValues("management.health.deadletters.enabled=false")
                .run(context -> {
                    assertThat(context).doesNotHaveBean("deadLettersHealthIndicator");
                    assertThat(context).hasSingleBean(DeadLetterMonitor.class);
                });
    }

    @Test
    void aBrokerClientOfTheServicesOwnReplacesTheStartersOne() {
        DeadLetterBroker own = new DeadLetterBroker(rabbit(), "order-service.dlx", Duration.ofSeconds(1));
        runner.withBean("myDeadLetterBroker", DeadLetterBroker.class, () -> own)
                .run(context -> assertThat(context.getBean(DeadLetterBroker.class)).isSameAs(own));
    }

    @Test
    void refusesSettingsThatCannotWork() {
        runner.withPropertyValues("messaging.dead-letters.refresh-interval=0s")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("messaging.dead-letters.refresh-interval must be a positive duration"));
    }

    /** Connects only when used: nothing in these tests waits for the first refresh. */
    private static CachingConnectionFactory rabbit() {
        return new CachingConnectionFactory("localhost", 1);
    }
}
