package com.example.messaging.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import com.example.events.OrderCreated;
import com.example.testsupport.BrokerClient;
import com.example.testsupport.TestInfrastructure;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.MessageProperties;

/**
 * The broker users the provisioner creates, against the real broker in a vhost of its own (users named for this
 * run, with the permissions of the service they stand for): a service's user does what the service needs and is
 * refused the rest, and a consumer runs with nothing more (its binder does not declare the exchange it consumes
 * from, as in a deployment).
 */
class BrokerUsersIntegrationTests {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final TestInfrastructure infrastructure = TestInfrastructure.get();
    private final String run = "it-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    private final Map<String, String> passwords = new HashMap<>();
    private String vhost;

    @BeforeEach
    void provision() {
        vhost = infrastructure.createVhost("it-broker-users");
        TestInfrastructure.Rabbit rabbit = infrastructure.rabbit();
        BrokerAddress admin = new BrokerAddress(rabbit.host(), rabbit.port(), vhost, rabbit.user(), rabbit.password());
        TopologyProvisioner.provision(admin, Map.of());
        Map<String, String> environment = new HashMap<>();
        environment.put("RABBITMQ_MANAGEMENT_URL", rabbit.managementUrl());
        for (String service : BrokerUsers.services()) {
            String password = UUID.randomUUID().toString();
            passwords.put(service, password);
            environment.put(BrokerUsers.passwordVariable(service), password);
            infrastructure.dropUserAtExit(run + service);
        }
        List<String> users = BrokerUsers.provision(admin, environment, service -> run + service);
        assertThat(users).hasSize(BrokerUsers.services().size());
    }

    @Test
    void inventoryServicesUserPublishesOnItsOwnExchangeButCannotForgeAnotherServicesEvents() throws Exception {
        try (Connection inventory = connect("inventory-service")) {
            assertThat(publish(inventory, "inventory.events", "InventoryReserved")).as("its own exchange").isTrue();

            assertRefused(() -> publish(inventory, "risk.events", "RiskApproved"), "exchange 'risk.events'");
            // Not around the exchanges either: the default exchange reaches any queue by name...
            assertRefused(() -> publish(inventory, "", "risk.events.order-service"), "exchange 'amq.default'");
            // ...and another service's dead-letter exchange reaches its dead-letter queues.
            assertRefused(() -> publish(inventory, "order-service.dlx", "risk.events.order-service"),
                    "exchange 'order-service.dlx'");
            assertRefused(() -> run(inventory, channel -> channel.exchangeDelete("order.events")),
                    "exchange 'order.events'");
            assertRefused(() -> run(inventory, channel -> channel.basicGet("order.events.coupon-service", false)),
                    "queue 'order.events.coupon-service'");
            assertRefused(() -> run(inventory, channel -> channel.queueDelete("order.events.coupon-service")),
                    "queue 'order.events.coupon-service'");
            assertRefused(() -> run(inventory, channel -> channel.queueBind("order.events.inventory-service",
                    "risk.events", "#")), "exchange 'risk.events'");
        }
    }

    @Test
    void aConsumerRunsWithItsOwnUserAndTheTopologyTheProvisionerDeclared() throws InterruptedException {
        Map<String, Object> asRiskService = Map.of(
                "spring.rabbitmq.username", run + "risk-service",
                "spring.rabbitmq.password", passwords.get("risk-service"),
                TestInfrastructure.DECLARE_SOURCE_EXCHANGES, false,
                // Its own exchange, which a service declares at start-up (the test application's is order.events).
                "messaging.relay.exchanges", "risk.events");
        try (ConfigurableApplicationContext consumer = LateConsumerApplication.start("risk-service", vhost,
                asRiskService); BrokerClient broker = BrokerClient.forVhost(vhost)) {
            LateConsumerApplication.Received received = consumer.getBean(LateConsumerApplication.Received.class);
            OrderCreated order = new OrderCreated(UUID.randomUUID(), 7L, 42L, List.of(1001L), null, Instant.now());

            broker.publish(order);

            assertThat(received.next(PATIENCE)).isEqualTo(order);
        }
    }

    private interface ChannelWork {

        void run(Channel channel) throws Exception;
    }

    private static Object run(Connection connection, ChannelWork work) throws Exception {
        try (Channel channel = connection.createChannel()) {
            work.run(channel);
        }
        return null;
    }

    /** True once the broker confirmed the message; a refusal closes the channel, which throws. */
    private static boolean publish(Connection connection, String exchange, String routingKey) throws Exception {
        Channel channel = connection.createChannel();
        try {
            channel.confirmSelect();
            AMQP.BasicProperties properties = MessageProperties.PERSISTENT_TEXT_PLAIN.builder()
                    .messageId(UUID.randomUUID().toString()).type(routingKey).build();
            channel.basicPublish(exchange, routingKey, false, properties, "{}".getBytes(StandardCharsets.UTF_8));
            channel.waitForConfirmsOrDie(5_000);
            return true;
        } finally {
            if (channel.isOpen()) {
                channel.close();
            }
        }
    }

    private interface Attempt {

        Object run() throws Exception;
    }

    private static void assertRefused(Attempt attempt, String resource) {
        assertThatThrownBy(attempt::run).as(resource).satisfies(failure -> assertThat(reason(failure))
                .contains("ACCESS_REFUSED").contains(resource));
    }

    private static String reason(Throwable failure) {
        StringBuilder reasons = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            reasons.append(cause.getMessage()).append(" / ");
        }
        return reasons.toString();
    }

    private Connection connect(String service) throws Exception {
        TestInfrastructure.Rabbit rabbit = infrastructure.rabbit();
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(rabbit.host());
        factory.setPort(rabbit.port());
        factory.setVirtualHost(vhost);
        factory.setUsername(run + service);
        factory.setPassword(passwords.get(service));
        factory.setAutomaticRecoveryEnabled(false);
        return factory.newConnection("it-" + service);
    }
}
