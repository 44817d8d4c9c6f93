package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.stream.config.BindingServiceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.convert.support.DefaultConversionService;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.transaction.ReactiveTransactionManager;

import com.example.events.CouponEvent;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.events.RiskApproved;
import com.example.messaging.outbox.OutboxAutoConfiguration;
import com.example.messaging.support.Janitor;
import com.example.messaging.support.StubConnectionFactory;
import com.example.service.autoconfigure.ServiceAutoConfiguration;
import com.example.service.faults.CrashPoints;

import io.r2dbc.spi.ConnectionFactory;
import reactor.core.publisher.Flux;

/** Each condition of the inbox's auto-configuration, on and off. */
class InboxAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ServiceAutoConfiguration.class, OutboxAutoConfiguration.class,
                    InboxAutoConfiguration.class))
            .withPropertyValues("service.database.create-if-missing=false")
            .withBean(ConnectionFactory.class, StubConnectionFactory::new)
            .withBean(ReactiveTransactionManager.class, () -> new R2dbcTransactionManager(new StubConnectionFactory()));

    @Test
    void handlersGetAnInboxSubscribedToWhatTheyHandle() {
        runner.withUserConfiguration(Handlers.class).run(context -> {
            assertThat(context).hasSingleBean(Inbox.class);
            assertThat(context.getBean("inbox")).isInstanceOf(java.util.function.Consumer.class);
            assertThat(context.getBean(Inbox.class).subscriptions()).isEqualTo(Map.of(
                    "order.events", Set.of("OrderCreated", "OrderCancelled"),
                    "coupon.events", Set.of("CouponRedeemed", "CouponRejected", "CouponNotNeeded", "CouponReleased")));
        });
    }

    @Test
    void theBindingsQueuesAreNamedFromTheSubscribedExchangesAndTheGroup() {
        runner.withUserConfiguration(Handlers.class)
                .withBean(BindingServiceProperties.class)
                .withBean("integrationConversionService", ConversionService.class, DefaultConversionService::new)
                .withPropertyValues("spring.cloud.stream.bindings.inbox-in-0.group=test-consumer")
                .run(context -> {
                    assertThat(context.getBean(InboxQueues.class).queues())
                            .containsExactly("coupon.events.test-consumer", "order.events.test-consumer");
                    assertThat(context.getBean(InboxQueues.class).deadLetterQueues())
                            .containsExactly("coupon.events.test-consumer.dlq", "order.events.test-consumer.dlq");
                });
    }

    @Test
    void aDestinationSetInTheConfigurationNamesTheQueuesAndNoGroupMeansNoDeadLetterQueues() {
        runner.withUserConfiguration(Handlers.class)
                .withBean(BindingServiceProperties.class)
                .withBean("integrationConversionService", ConversionService.class, DefaultConversionService::new)
                .withPropertyValues("spring.cloud.stream.bindings.inbox-in-0.group=test-consumer",
                        "spring.cloud.stream.bindings.inbox-in-0.destination=legacy.events")
                .run(context -> assertThat(context.getBean(InboxQueues.class).deadLetterQueues())
                        .containsExactly("legacy.events.test-consumer.dlq"));
        runner.withUserConfiguration(Handlers.class)
                .withBean(BindingServiceProperties.class)
                .withBean("integrationConversionService", ConversionService.class, DefaultConversionService::new)
                .run(context -> assertThat(context.getBean(InboxQueues.class).queues()).isEmpty());
    }

    @Test
    void deliveriesAreAppliedInBatchesThatStopBeforeTheBindingsWhenTheBrokerConnectionIsThere() {
        runner.withUserConfiguration(Handlers.class)
                .withBean("rabbitConnectionFactory", CachingConnectionFactory.class,
                        () -> new CachingConnectionFactory("localhost"))
                .withPropertyValues("messaging.inbox.batch.size=8", "messaging.inbox.batch.linger=10ms")
                .run(context -> {
                    Inbox inbox = context.getBean(Inbox.class);
                    assertThat(inbox.consumesInBatches()).isTrue();
                    assertThat(inbox.batchLinger()).isEqualTo(Duration.ofMillis(10));
                    assertThat(inbox.isRunning()).isTrue();
                    // The input bindings' phase: a batch in flight must end while its channel is open.
                    assertThat(inbox.getPhase()).isGreaterThan(Integer.MAX_VALUE - 3000);
                });
        runner.withUserConfiguration(Handlers.class)
                .withBean("rabbitConnectionFactory", CachingConnectionFactory.class,
                        () -> new CachingConnectionFactory("localhost"))
                .withPropertyValues("messaging.inbox.batch.size=1")
                .run(context -> assertThat(context.getBean(Inbox.class).consumesInBatches()).isFalse());
        // Without a broker connection nothing is delivered, and poison of a batch would have nowhere to go.
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.size=8")
                .run(context -> assertThat(context.getBean(Inbox.class).consumesInBatches()).isFalse());
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.size=0")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("messaging.inbox.batch.size must be at least 1"));
    }

    /** Unset (the default, and what an empty INBOX_BATCH_LOCK_TIMEOUT gives): a batch waits like any statement. */
    @Test
    void aBatchGivesUpWaitingForALockOnlyWhenABatchLockTimeoutIsSet() {
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.lock-timeout=")
                .run(context -> assertThat(context.getBean(InboxProperties.class).batch().lockTimeout()).isNull());
        runner.withUserConfiguration(Handlers.class)
                .run(context -> assertThat(context.getBean(InboxProperties.class).batch().lockTimeout()).isNull());
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.lock-timeout=250ms")
                .run(context -> assertThat(context.getBean(InboxProperties.class).batch().lockTimeout())
                        .isEqualTo(Duration.ofMillis(250)));
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.lock-timeout=0ms")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("messaging.inbox.batch.lock-timeout must be at least 1ms"));
    }

    /** None by default: a lone delivery goes at once. */
    @Test
    void aLaneLingersOnlyWhenALingerIsSet() {
        runner.withUserConfiguration(Handlers.class)
                .run(context -> assertThat(context.getBean(InboxProperties.class).batch().linger()).isZero());
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.linger=10ms")
                .run(context -> assertThat(context.getBean(InboxProperties.class).batch().linger())
                        .isEqualTo(Duration.ofMillis(10)));
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.linger=-1ms")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("messaging.inbox.batch.linger must be zero or more"));
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.linger=5s")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("shorter than the stop timeout"));
    }

    /** Every type by default; named records or whole families otherwise; a name the contract does not know is refused. */
    @Test
    void aLaneLingersForTheEventTypesNamed() {
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.linger=10ms")
                .run(context -> assertThat(context.getBean(InboxProperties.class).batch().lingersFor())
                        .accepts("RiskApproved", "PaymentSucceeded"));
        // What an empty INBOX_BATCH_LINGER_FOR gives.
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.linger=10ms",
                "messaging.inbox.batch.linger-for=")
                .run(context -> assertThat(context.getBean(InboxProperties.class).batch().lingersFor())
                        .accepts("RiskApproved", "PaymentSucceeded"));
        runner.withUserConfiguration(Handlers.class)
                .withPropertyValues("messaging.inbox.batch.linger-for=RiskApproved,RiskRejected")
                .run(context -> assertThat(context.getBean(InboxProperties.class).batch().lingersFor())
                        .as("without a linger nothing lingers").rejects("RiskApproved"));
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.linger=10ms",
                "messaging.inbox.batch.linger-for=InventoryEvent, RiskApproved")
                .run(context -> assertThat(context.getBean(InboxProperties.class).batch().lingersFor())
                        .accepts("InventoryReserved", "InventoryRejected", "RiskApproved")
                        .rejects("RiskRejected", "PaymentSucceeded"));
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.batch.linger=10ms",
                "messaging.inbox.batch.linger-for=RiskEvent,PaymentResult")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("'PaymentResult' is neither an event type nor a producer's family"));
    }

    @Test
    void noHandlersNoInboxButTheJanitorAndTheCrashPoints() {
        runner.withPropertyValues("faults.crash-at=consumer.before-commit,consumer.after-commit-before-ack")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(Inbox.class);
                    assertThat(context).doesNotHaveBean(InboxQueues.class);
                    assertThat(context).hasBean("processedEventsJanitor");
                    assertThat(context.getBean(CrashPoints.class).armed()).containsOnlyKeys("consumer.before-commit",
                            "consumer.after-commit-before-ack");
                });
    }

    @Test
    void noDatabaseNoInbox() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ServiceAutoConfiguration.class, OutboxAutoConfiguration.class,
                        InboxAutoConfiguration.class))
                .withUserConfiguration(Handlers.class)
                .withPropertyValues("service.database.create-if-missing=false")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(Inbox.class);
                    assertThat(context).doesNotHaveBean(Janitor.class);
                });
    }

    @Test
    void twoHandlersForOneEventRefuseToStart() {
        runner.withUserConfiguration(Handlers.class, AnotherCouponHandler.class)
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("two handlers for CouponRedeemed"));
    }

    @Test
    void badSettingsRefuseToStart() {
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.backoff.jitter=2")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("backoff.jitter must be between 0 and 1"));
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.retention.batch-size=0")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("messaging.inbox.retention.batch-size must be at least 1"));
        runner.withUserConfiguration(Handlers.class).withPropertyValues("messaging.inbox.timeouts-before-poison=0")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("messaging.inbox.timeouts-before-poison must be at least 1"));
    }

    /** PostgreSQL, not the waiting listener thread, must be the one that ends a statement that runs too long. */
    @Test
    void aStatementTimeoutThatDoesNotEndBeforeTheTransactionTimeoutRefusesToStart() {
        runner.withUserConfiguration(Handlers.class)
                .withPropertyValues("service.database.statement-timeout=30s", "messaging.inbox.transaction-timeout=30s")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("service.database.statement-timeout (PT30S) must be shorter than "
                                + "messaging.inbox.transaction-timeout (PT30S)"));
        runner.withUserConfiguration(Handlers.class)
                .withPropertyValues("service.database.statement-timeout=29s", "messaging.inbox.transaction-timeout=30s")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(Inbox.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class Handlers {

        @Bean
        EventHandler<OrderCreated> created() {
            return EventHandler.of(OrderCreated.class, event -> Flux.empty());
        }

        @Bean
        EventHandler<OrderCancelled> cancelled() {
            return EventHandler.of(OrderCancelled.class, event -> Flux.empty());
        }

        /** A whole family: every coupon reply. */
        @Bean
        EventHandler<CouponEvent> couponReplies() {
            return EventHandler.of(CouponEvent.class, event -> Flux.just(new RiskApproved(java.util.UUID.randomUUID(),
                    event.orderId(), java.time.Instant.now())));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class AnotherCouponHandler {

        @Bean
        EventHandler<com.example.events.CouponRedeemed> redeemed() {
            return EventHandler.of(com.example.events.CouponRedeemed.class, event -> Flux.empty());
        }
    }
}
