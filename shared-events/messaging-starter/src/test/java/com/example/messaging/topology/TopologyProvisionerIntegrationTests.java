package com.example.messaging.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.context.ConfigurableApplicationContext;

import com.example.events.EventJson;
import com.example.events.EventTypes;
import com.example.events.OrderCreated;
import com.example.events.OrderEvent;
import com.example.events.Subscriptions;
import com.example.events.Subscriptions.Subscription;
import com.example.testsupport.BrokerClient;
import com.example.testsupport.BrokerClient.QueueBinding;
import com.example.testsupport.TestInfrastructure;

import tools.jackson.databind.JsonNode;

/**
 * The provisioner against a real broker, each test in vhosts of its own: what it declares is what the binder
 * declares (compared with a vhost where a consumer's binder declared its own queues), declaring twice changes
 * nothing, and the point of it all: an event published before its consumer ever started waits in the consumer's
 * queue and is handled once the consumer starts. The same event without provisioning is lost, which shows that the
 * test could fail.
 */
class TopologyProvisionerIntegrationTests {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final TestInfrastructure infrastructure = TestInfrastructure.get();

    @Test
    void everyQueueOfTheContractExistsAsQuorumWithItsDeadLetterQueueAndBindingsAndASecondRunChangesNothing() {
        String vhost = infrastructure.createVhost("it-topology");
        List<String> first = provision(vhost);
        try (BrokerClient broker = BrokerClient.forVhost(vhost)) {
            OrderCreated waiting = order();
            broker.publish(waiting);

            List<String> second = provision(vhost);

            assertThat(second).isEqualTo(first).hasSize(2 * Subscriptions.all().size());
            for (String exchange : List.of("order.events", "inventory.events", "coupon.events", "risk.events")) {
                assertThat(broker.hasDurableExchange(exchange, "topic")).as(exchange).isTrue();
            }
            for (String group : Subscriptions.groups()) {
                assertThat(broker.hasDurableExchange(group + ".dlx", "direct")).as(group).isTrue();
            }
            for (Subscription subscription : Subscriptions.all()) {
                String deadLetterExchange = subscription.group() + ".dlx";
                JsonNode queue = broker.queue(subscription.queue());
                assertThat(queue.path("durable").asBoolean()).as(subscription.queue()).isTrue();
                assertThat(queue.path("arguments").path("x-queue-type").asString()).isEqualTo("quorum");
                assertThat(queue.path("arguments").path("x-delivery-limit").asInt()).isEqualTo(20);
                assertThat(queue.path("arguments").path("x-dead-letter-exchange").asString())
                        .isEqualTo(deadLetterExchange);
                assertThat(queue.path("arguments").path("x-dead-letter-routing-key").asString())
                        .isEqualTo(subscription.queue());
                List<QueueBinding> bindings = new ArrayList<>(subscription.eventTypes().stream()
                        .map(type -> new QueueBinding(subscription.exchange(), type)).toList());
                // The way back for an operator's re-drive, through the service's own exchange.
                bindings.add(new QueueBinding(deadLetterExchange, subscription.queue() + ".redrive"));
                assertThat(broker.bindings(subscription.queue())).containsExactlyInAnyOrderElementsOf(bindings);
                JsonNode deadLetters = broker.queue(subscription.deadLetterQueue());
                assertThat(deadLetters.path("durable").asBoolean()).isTrue();
                assertThat(deadLetters.path("arguments").path("x-queue-type").asString()).isEqualTo("quorum");
                assertThat(broker.bindings(subscription.deadLetterQueue()))
                        .containsExactly(new QueueBinding(deadLetterExchange, subscription.queue()));
            }
            // Declaring again is no purge: what waited for risk-service before still waits.
            assertThat(broker.ready("order.events.risk-service")).isEqualTo(1);
        }
    }

    /**
     * The binder of each kind of consumer (one exchange; several) declares in a vhost of its own; everything it
     * declared must be exactly what the provisioner declares in another, down to the arguments' values.
     */
    @Test
    void whatTheProvisionerDeclaresIsWhatTheBindersDeclare() {
        String provisioned = infrastructure.createVhost("it-topology-provisioned");
        provision(provisioned);
        for (String group : List.of("risk-service", "order-service")) {
            String declaredByBinder = infrastructure.createVhost("it-topology-binder");
            try (ConfigurableApplicationContext consumer = LateConsumerApplication.start(group, declaredByBinder);
                    BrokerClient binder = BrokerClient.forVhost(declaredByBinder);
                    BrokerClient provisioner = BrokerClient.forVhost(provisioned)) {
                List<Subscription> rows = Subscriptions.all().stream()
                        .filter(subscription -> subscription.group().equals(group)).toList();
                assertThat(rows).isNotEmpty();
                for (Subscription row : rows) {
                    for (String queue : List.of(row.queue(), row.deadLetterQueue())) {
                        assertThat(declaration(provisioner.queue(queue))).as(queue)
                                .isEqualTo(declaration(binder.queue(queue)));
                    }
                    assertThat(provisioner.bindings(row.deadLetterQueue()))
                            .containsExactlyInAnyOrderElementsOf(binder.bindings(row.deadLetterQueue()));
                    // One binding with several destinations binds each queue with every routing key of the binding;
                    // the keys of other exchanges' events never match on this one, so only this exchange's count.
                    // (The re-drive binding is the service's own, made when an operator first re-drives.)
                    assertThat(provisioner.bindings(row.queue()).stream()
                            .filter(binding -> binding.exchange().equals(row.exchange())).toList())
                            .as(row.queue()).containsExactlyInAnyOrderElementsOf(
                            binder.bindings(row.queue()).stream()
                                    .filter(binding -> isEventOf(row.exchange(), binding.routingKey())).toList());
                    assertThat(declaration(provisioner.exchange(row.exchange())))
                            .isEqualTo(declaration(binder.exchange(row.exchange())));
                }
                assertThat(declaration(provisioner.exchange(group + ".dlx")))
                        .isEqualTo(declaration(binder.exchange(group + ".dlx")));
            }
        }
    }

    @Test
    void anEventPublishedBeforeItsConsumerEverStartedIsHandledWhenItStarts() throws InterruptedException {
        String vhost = infrastructure.createVhost("it-topology-late");
        provision(vhost);
        OrderCreated early = order();
        try (BrokerClient broker = BrokerClient.forVhost(vhost)) {
            broker.publish(early);
            assertThat(broker.ready("order.events.risk-service")).isEqualTo(1);
            Map<String, Object> before = arguments(broker, "order.events.risk-service");

            try (ConfigurableApplicationContext consumer = LateConsumerApplication.start("risk-service", vhost)) {
                LateConsumerApplication.Received received = consumer.getBean(LateConsumerApplication.Received.class);

                // Its binder redeclared the provisioned queue without PRECONDITION_FAILED, or nothing would arrive.
                assertThat(received.next(PATIENCE)).isEqualTo(early);
                OrderCreated later = order();
                broker.publish(later);
                assertThat(received.next(PATIENCE)).isEqualTo(later);
                assertThat(arguments(broker, "order.events.risk-service")).isEqualTo(before);
            }
        }
    }

    /** Without the provisioner only the exchange exists (the publisher declares it): the early event reaches no one. */
    @Test
    void withoutProvisioningAnEventPublishedBeforeItsConsumerStartedIsLost() throws InterruptedException {
        String vhost = infrastructure.createVhost("it-topology-unprovisioned");
        declareExchange(vhost, OrderEvent.EXCHANGE);
        OrderCreated early = order();
        try (BrokerClient broker = BrokerClient.forVhost(vhost)) {
            broker.publish(early);
            assertThat(broker.ready("order.events.risk-service")).isEqualTo(-1);

            try (ConfigurableApplicationContext consumer = LateConsumerApplication.start("risk-service", vhost)) {
                LateConsumerApplication.Received received = consumer.getBean(LateConsumerApplication.Received.class);
                OrderCreated later = order();
                broker.publish(later);

                assertThat(received.next(PATIENCE)).isEqualTo(later);
                assertThat(received.next(Duration.ofSeconds(2))).isNull();
            }
        }
    }

    /** A queue of an earlier version dead-letters through the shared DLX: refused, with the way to upgrade. */
    @Test
    void aQueueThatDeadLettersThroughTheOldSharedExchangeStopsTheRunWithTheWayToUpgrade() {
        String vhost = infrastructure.createVhost("it-topology-upgrade");
        asAdministrator(vhost, admin -> admin.declareQueue(QueueBuilder.durable("order.events.risk-service").quorum()
                .deliveryLimit(20).deadLetterExchange("DLX").deadLetterRoutingKey("order.events.risk-service")
                .build()));

        assertThatThrownBy(() -> provision(vhost)).isInstanceOf(TopologyException.class)
                .hasMessageContaining("inequivalent arg 'x-dead-letter-exchange'")
                .hasMessageContaining("docs/operations.md, \"Broker users\"");
    }

    private static boolean isEventOf(String exchange, String eventType) {
        return EventTypes.forName(eventType).map(EventTypes::exchangeOf).filter(exchange::equals).isPresent();
    }

    private List<String> provision(String vhost) {
        TestInfrastructure.Rabbit rabbit = infrastructure.rabbit();
        return TopologyProvisioner.provision(
                new BrokerAddress(rabbit.host(), rabbit.port(), vhost, rabbit.user(), rabbit.password()), Map.of());
    }

    private void declareExchange(String vhost, String exchange) {
        asAdministrator(vhost, admin -> admin.declareExchange(new TopicExchange(exchange, true, false)));
    }

    private void asAdministrator(String vhost, Consumer<RabbitAdmin> work) {
        TestInfrastructure.Rabbit rabbit = infrastructure.rabbit();
        CachingConnectionFactory connections = new CachingConnectionFactory(rabbit.host(), rabbit.port());
        connections.setUsername(rabbit.user());
        connections.setPassword(rabbit.password());
        connections.setVirtualHost(vhost);
        try {
            work.accept(new RabbitAdmin(connections));
        } finally {
            connections.destroy();
        }
    }

    /** What a redeclaration is compared with: the kind of thing, its flags and its arguments, not its statistics. */
    private static Map<String, JsonNode> declaration(JsonNode entity) {
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        for (String field : List.of("name", "type", "durable", "auto_delete", "exclusive", "internal", "arguments")) {
            fields.put(field, entity.path(field));
        }
        return fields;
    }

    private static Map<String, Object> arguments(BrokerClient broker, String queue) {
        return EventJson.mapper().convertValue(broker.queueArguments(queue), Map.class);
    }

    private static OrderCreated order() {
        return new OrderCreated(UUID.randomUUID(), Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000) + 1,
                42L, List.of(1001L), null, Instant.now());
    }
}
