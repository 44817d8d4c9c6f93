package com.example.messaging.deadletter;

import java.util.List;

import org.springframework.amqp.rabbit.connection.AbstractConnectionFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import com.example.messaging.inbox.InboxAutoConfiguration;
import com.example.messaging.inbox.InboxQueues;

/**
 * Makes the dead-letter queues of every service with a broker visible and re-drivable: their depths, refreshed
 * in the background ({@code messaging.dead-letters.*}), as the {@value DeadLetterMetrics#DEAD_LETTERS} gauges and
 * the {@code deadLetters} health indicator (for the {@code messaging} group), and, in a reactive web application,
 * the operator endpoints under {@code /admin/dead-letters}. The queues are the inbox's ({@link InboxQueues}); a
 * service that consumes nothing has none, and still has the indicator, so the group's members resolve.
 */
@AutoConfiguration(after = InboxAutoConfiguration.class,
        afterName = "org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration")
@ConditionalOnClass(RabbitTemplate.class)
@ConditionalOnBean(ConnectionFactory.class)
@EnableConfigurationProperties(DeadLetterProperties.class)
public class DeadLetterAutoConfiguration {

    /** On a connection of its own (see {@link DeadLetterBroker}), to the broker the application's factory names. */
    @Bean
    @ConditionalOnMissingBean
    DeadLetterBroker deadLetterBroker(ConnectionFactory rabbitConnectionFactory, DeadLetterProperties properties,
            Environment environment) {
        CachingConnectionFactory own = rabbitConnectionFactory instanceof AbstractConnectionFactory configured
                ? new CachingConnectionFactory(configured.getRabbitConnectionFactory())
                : new CachingConnectionFactory(rabbitConnectionFactory.getHost(), rabbitConnectionFactory.getPort());
        own.setConnectionNameStrategy(factory -> "dead-letters");
        return new DeadLetterBroker(own, InboxQueues.deadLetterExchange(environment), properties.brokerTimeout());
    }

    @Bean
    @ConditionalOnMissingBean
    DeadLetterMonitor deadLetterMonitor(ObjectProvider<InboxQueues> inboxQueues, DeadLetterBroker deadLetterBroker,
            DeadLetterProperties properties) {
        List<String> queues = inboxQueues.getIfAvailable(() -> new InboxQueues(List.of())).deadLetterQueues();
        return new DeadLetterMonitor(queues, deadLetterBroker, properties);
    }

    @Bean
    DeadLetterMetrics deadLetterMetrics(DeadLetterMonitor deadLetterMonitor) {
        return new DeadLetterMetrics(deadLetterMonitor);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("deadletters")
    static class DeadLetterHealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "deadLettersHealthIndicator")
        HealthIndicator deadLettersHealthIndicator(DeadLetterMonitor deadLetterMonitor) {
            return new DeadLetterHealthIndicator(deadLetterMonitor);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class DeadLetterEndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        DeadLettersController deadLettersController(DeadLetterMonitor deadLetterMonitor,
                DeadLetterBroker deadLetterBroker) {
            return new DeadLettersController(deadLetterMonitor, deadLetterBroker);
        }
    }
}
