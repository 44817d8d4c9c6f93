package com.example.messaging.topology;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.springframework.cloud.stream.binder.rabbit.properties.RabbitCommonProperties;
import org.springframework.cloud.stream.binder.rabbit.properties.RabbitCommonProperties.QuorumConfig;
import org.springframework.cloud.stream.binder.rabbit.properties.RabbitConsumerProperties;
import org.springframework.cloud.stream.binder.rabbit.properties.RabbitConsumerProperties.ContainerType;
import org.springframework.util.StringUtils;

/**
 * What the RabbitMQ binder declares for a consumer group's queue and its dead-letter queue with the given consumer
 * settings: the same arguments, the same dead-letter exchange and the same bindings as its
 * {@code RabbitExchangeQueueProvisioner} (queue arguments, then the "additional" ones, in its order). RabbitMQ refuses
 * a redeclaration whose arguments differ, so this mirrors the binder option by option; settings that would change
 * names or the shape of the topology (a prefix, a group-only queue name, no DLQ...) are refused rather than
 * half-mirrored.
 */
final class QueueArguments {

    /** The only exchange type mirrored (the contract's exchanges are topic exchanges). */
    static final String EXCHANGE_TYPE = "topic";

    private final RabbitConsumerProperties settings;

    QueueArguments(RabbitConsumerProperties settings) {
        requireMirrored(settings);
        this.settings = settings;
    }

    /** The binder's dead-letter exchange, by default {@value RabbitCommonProperties#DEAD_LETTER_EXCHANGE}. */
    String deadLetterExchange() {
        return settings.getDeadLetterExchange() != null ? settings.getDeadLetterExchange()
                : RabbitCommonProperties.DEAD_LETTER_EXCHANGE;
    }

    /** Its type, by default {@code direct}; durable. */
    String deadLetterExchangeType() {
        return settings.getDeadLetterExchangeType();
    }

    /** The arguments of a subscriber queue: where it dead-letters to, then type, delivery limit and the rest. */
    Map<String, Object> queue(String queue) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("x-dead-letter-exchange", deadLetterExchange());
        arguments.put("x-dead-letter-routing-key",
                settings.getDeadLetterRoutingKey() != null ? settings.getDeadLetterRoutingKey() : queue);
        additional(arguments, false);
        return arguments;
    }

    Map<String, Object> deadLetterQueue() {
        Map<String, Object> arguments = new LinkedHashMap<>();
        if (settings.getDlqDeadLetterExchange() != null) {
            arguments.put("x-dead-letter-exchange", settings.getDlqDeadLetterExchange());
        }
        if (settings.getDlqDeadLetterRoutingKey() != null) {
            arguments.put("x-dead-letter-routing-key", settings.getDlqDeadLetterRoutingKey());
        }
        additional(arguments, true);
        return arguments;
    }

    /**
     * The routing keys binding a queue's dead-letter queue to the dead-letter exchange: what the broker dead-letters
     * with, and (with republishToDlq) the queue's name, which the binder's republisher uses; here both are the same
     * unless a dead-letter routing key is set.
     */
    Set<String> deadLetterRoutingKeys(String queue) {
        Set<String> keys = new LinkedHashSet<>();
        keys.add(settings.getDeadLetterRoutingKey() != null ? settings.getDeadLetterRoutingKey() : queue);
        if (settings.isRepublishToDlq()) {
            keys.add(queue);
        }
        return keys;
    }

    /** One line for people: the settings that must agree with every service's binder. */
    String describe() {
        QuorumConfig quorum = settings.getQuorum();
        return (quorum.isEnabled() ? "quorum" : "classic")
                + (quorum.getDeliveryLimit() != null ? ", x-delivery-limit " + quorum.getDeliveryLimit() : "")
                + ", dead letters via " + deadLetterExchange();
    }

    private void additional(Map<String, Object> arguments, boolean deadLetterQueue) {
        Integer expires = deadLetterQueue ? settings.getDlqExpires() : settings.getExpires();
        Integer maxLength = deadLetterQueue ? settings.getDlqMaxLength() : settings.getMaxLength();
        Integer maxLengthBytes = deadLetterQueue ? settings.getDlqMaxLengthBytes() : settings.getMaxLengthBytes();
        Integer maxPriority = deadLetterQueue ? settings.getDlqMaxPriority() : settings.getMaxPriority();
        Integer ttl = deadLetterQueue ? settings.getDlqTtl() : settings.getTtl();
        boolean lazy = deadLetterQueue ? settings.isDlqLazy() : settings.isLazy();
        String overflow = deadLetterQueue ? settings.getDlqOverflowBehavior() : settings.getOverflowBehavior();
        QuorumConfig quorum = deadLetterQueue ? settings.getDlqQuorum() : settings.getQuorum();
        boolean singleActive = deadLetterQueue ? settings.isDlqSingleActiveConsumer() : settings.isSingleActiveConsumer();
        putIfSet(arguments, "x-expires", expires);
        putIfSet(arguments, "x-max-length", maxLength);
        putIfSet(arguments, "x-max-length-bytes", maxLengthBytes);
        putIfSet(arguments, "x-max-priority", maxPriority);
        putIfSet(arguments, "x-message-ttl", ttl);
        if (lazy) {
            arguments.put("x-queue-mode", "lazy");
        }
        if (StringUtils.hasText(overflow)) {
            arguments.put("x-overflow", overflow);
        }
        if (quorum != null && quorum.isEnabled()) {
            arguments.put("x-queue-type", "quorum");
            putIfSet(arguments, "x-delivery-limit", quorum.getDeliveryLimit());
            putIfSet(arguments, "x-quorum-initial-group-size", quorum.getInitialGroupSize());
        }
        if (singleActive) {
            arguments.put("x-single-active-consumer", true);
        }
    }

    private static void putIfSet(Map<String, Object> arguments, String name, Integer value) {
        if (value != null) {
            arguments.put(name, value);
        }
    }

    private static void requireMirrored(RabbitConsumerProperties settings) {
        refuseUnless(settings.isAutoBindDlq(), "auto-bind-dlq=false (no dead-letter queue: docs/architecture.md, rule 4)");
        refuseUnless(!StringUtils.hasText(settings.getPrefix()), "a prefix");
        refuseUnless(!settings.isQueueNameGroupOnly(), "queue-name-group-only");
        refuseUnless(settings.getDeadLetterQueueName() == null, "dead-letter-queue-name");
        refuseUnless(settings.isDeclareDlx(), "declare-dlx=false");
        // declare-exchange may be either: the topology step declares every exchange, whether the binder does or not.
        refuseUnless(settings.isBindQueue(), "bind-queue=false");
        refuseUnless(settings.isDurableSubscription(), "durable-subscription=false");
        refuseUnless(settings.isExchangeDurable() && !settings.isExchangeAutoDelete() && !settings.isDelayedExchange(),
                "an exchange that is not durable, or auto-delete, or delayed");
        refuseUnless(EXCHANGE_TYPE.equals(settings.getExchangeType()), "exchange-type " + settings.getExchangeType());
        refuseUnless(settings.getContainerType() != ContainerType.STREAM, "stream containers");
        refuseUnless(settings.getQueueBindingArguments().isEmpty() && settings.getDlqBindingArguments().isEmpty(),
                "binding arguments");
    }

    private static void refuseUnless(boolean mirrored, String setting) {
        if (!mirrored) {
            throw new IllegalStateException("the topology provisioner does not declare what the binder would with "
                    + setting + "; the starter's consumer defaults and the provisioner must change together");
        }
    }
}
