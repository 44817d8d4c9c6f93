package com.example.messaging.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.cloud.stream.binder.rabbit.properties.RabbitConsumerProperties;

/**
 * What the provisioner would declare with the starter's consumer defaults: the arguments the binder gives a queue
 * and its dead-letter queue (RabbitExchangeQueueProvisioner), for every row of the contract's table.
 */
class ContractTopologyTests {

    private final ContractTopology topology = ContractTopology.forContract(Map.of());

    @Test
    void everyProducerHasADurableTopicExchangeAndEachServiceADirectDeadLetterExchangeOfItsOwn() {
        assertThat(topology.exchanges()).containsExactly("coupon.events", "inventory.events", "order.events",
                "payment.events", "risk.events");
        assertThat(topology.exchangeType()).isEqualTo("topic");
        assertThat(topology.deadLetterExchanges()).containsExactly(Map.entry("coupon-service.dlx", "direct"),
                Map.entry("inventory-service.dlx", "direct"), Map.entry("order-service.dlx", "direct"),
                Map.entry("payment-service.dlx", "direct"), Map.entry("risk-service.dlx", "direct"));
    }

    @Test
    void aSubscriberQueueIsQuorumWithTheDeliveryLimitAndDeadLettersToItsOwnName() {
        SubscriberQueue risk = queue("order.events.risk-service");

        assertThat(risk.exchange()).isEqualTo("order.events");
        assertThat(risk.routingKeys()).containsExactly("OrderCreated");
        assertThat(risk.arguments()).isEqualTo(Map.of(
                "x-queue-type", "quorum",
                "x-delivery-limit", 20,
                "x-dead-letter-exchange", "risk-service.dlx",
                "x-dead-letter-routing-key", "order.events.risk-service"));
        assertThat(risk.deadLetterExchange()).isEqualTo("risk-service.dlx");
        assertThat(risk.deadLetterQueue()).isEqualTo("order.events.risk-service.dlq");
        assertThat(risk.deadLetterArguments()).isEqualTo(Map.of("x-queue-type", "quorum"));
        assertThat(risk.deadLetterRoutingKeys()).containsExactly("order.events.risk-service");
        assertThat(risk.redriveRoutingKey()).isEqualTo("order.events.risk-service.redrive");
    }

    @Test
    void everyRowOfTheTableHasItsQueue() {
        assertThat(topology.queues()).extracting(SubscriberQueue::name).containsExactly(
                "coupon.events.order-service", "inventory.events.order-service", "order.events.coupon-service",
                "order.events.inventory-service", "order.events.payment-service", "order.events.risk-service",
                "payment.events.order-service", "risk.events.order-service");
        assertThat(queue("order.events.payment-service").routingKeys())
                .isEqualTo(Set.of("PaymentRequested", "OrderCancelled"));
        assertThat(queue("order.events.inventory-service").routingKeys())
                .isEqualTo(Set.of("OrderCreated", "OrderCancelled"));
        assertThat(queue("coupon.events.order-service").routingKeys())
                .isEqualTo(Set.of("CouponRedeemed", "CouponRejected", "CouponNotNeeded", "CouponReleased"));
    }

    /** The same variable the services' binders read, with the same default, from the same file. */
    @Test
    void theDeliveryLimitFollowsInboxDeliveryLimit() {
        ContractTopology limited = ContractTopology.forContract(Map.of("INBOX_DELIVERY_LIMIT", "7"));

        assertThat(limited.queues()).allSatisfy(queue -> assertThat(queue.arguments()).containsEntry("x-delivery-limit", 7));
    }

    @Test
    void aBinderSettingTheProvisionerDoesNotMirrorIsRefused() {
        RabbitConsumerProperties prefixed = BinderConsumerSettings.load(Map.of(), "risk-service");
        prefixed.setPrefix("staging.");
        RabbitConsumerProperties withoutDlq = BinderConsumerSettings.load(Map.of(), "risk-service");
        withoutDlq.setAutoBindDlq(false);

        assertThatThrownBy(() -> new QueueArguments(prefixed)).hasMessageContaining("a prefix");
        assertThatThrownBy(() -> new QueueArguments(withoutDlq)).hasMessageContaining("auto-bind-dlq=false");
    }

    @Test
    void optionalBinderArgumentsAreMirroredToo() {
        RabbitConsumerProperties settings = BinderConsumerSettings.load(Map.of(), "risk-service");
        settings.setTtl(60_000);
        settings.setDlqMaxLength(1_000);
        settings.setDeadLetterRoutingKey("parked");

        QueueArguments arguments = new QueueArguments(settings);

        assertThat(arguments.queue("q")).containsEntry("x-message-ttl", 60_000)
                .containsEntry("x-dead-letter-routing-key", "parked");
        assertThat(arguments.deadLetterQueue()).containsEntry("x-max-length", 1_000);
        assertThat(arguments.deadLetterRoutingKeys("q")).containsExactly("parked", "q");
    }

    private SubscriberQueue queue(String name) {
        return topology.queues().stream().filter(queue -> queue.name().equals(name)).findFirst().orElseThrow();
    }
}
