package com.example.messaging.inbox;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.stream.binder.Binder;
import org.springframework.cloud.stream.binder.BinderCustomizer;
import org.springframework.cloud.stream.binder.ExtendedPropertiesBinder;
import org.springframework.cloud.stream.binder.rabbit.properties.RabbitConsumerProperties;
import org.springframework.cloud.stream.config.BindingProperties;
import org.springframework.cloud.stream.config.BindingServiceProperties;

import com.example.events.Subscriptions;

/**
 * Subscribes the inbox's binding ({@value #NAME}) to what the service's handlers handle, so that no service
 * writes binding configuration: the destinations are the exchanges of the handled events, the binding routing
 * keys their types; the group (the service's name) and everything else come from the starter's defaults. With
 * the group, the binder names each queue {@code <exchange>.<service name>} and its dead-letter queue
 * {@code <exchange>.<service name>.dlq}. A destination set explicitly in the configuration wins.
 *
 * <p>What the handlers handle must be the group's row of the contract's subscription table ({@link Subscriptions}),
 * or the service refuses to start: the topology provisioner declares the queues and bindings of that table before
 * any service runs, so a type handled here but missing there would be lost whenever it is published before this
 * service first starts, and a type listed there but not handled here would mean the table no longer describes the
 * system (docs/architecture.md, rule 9). A group the table does not know is only warned about.
 */
final class InboxBinding implements BinderCustomizer {

    static final String NAME = "inbox-in-0";

    private static final Logger log = LoggerFactory.getLogger(InboxBinding.class);

    private final String routingKeys;
    private final InboxQueues queues;
    private final InboxProperties.Batch batch;

    InboxBinding(Inbox inbox, BindingServiceProperties bindings, InboxProperties.Batch batch) {
        this.batch = batch;
        Map<String, Set<String>> subscriptions = inbox.subscriptions();
        Set<String> types = new TreeSet<>();
        subscriptions.values().forEach(types::addAll);
        this.routingKeys = String.join(",", types);
        BindingProperties binding = bindings.getBindingProperties(NAME);
        requireContractSubscription(binding.getGroup(), subscriptions);
        if (binding.getDestination() == null || NAME.equals(binding.getDestination())) {
            binding.setDestination(String.join(",", subscriptions.keySet()));
        }
        this.queues = InboxQueues.of(binding.getDestination(), binding.getGroup());
        log.info("Inbox subscribes group {} to {}", binding.getGroup(), subscriptions);
    }

    /** The queues the binder will bind, named from the destinations and the group as they are now settled. */
    InboxQueues queues() {
        return queues;
    }

    /**
     * A group of the contract's subscription table must handle exactly its row: the topology step declares the
     * queues and bindings from the table, so a difference would lose events or bind what nobody handles. A group
     * the table does not know (a consumer outside this system's contract, a test) is warned about, not refused: its
     * queues exist only once it has started, as with any consumer that declares its own.
     */
    private static void requireContractSubscription(String group, Map<String, Set<String>> handled) {
        Map<String, ? extends Set<String>> contract = group == null ? Map.of() : Subscriptions.routingKeysOf(group);
        if (contract.isEmpty()) {
            log.warn("Group {} is not in the contract's subscription table (com.example.events.Subscriptions): the "
                    + "topology step does not declare its queues, so events published before it first starts are not "
                    + "kept for it", group);
            return;
        }
        if (!contract.equals(handled)) {
            throw new IllegalStateException("The handlers of " + group + " handle " + handled
                    + ", but the contract's subscription table (com.example.events.Subscriptions) says group " + group
                    + " consumes " + contract + ". The topology provisioner declares queues and bindings from that"
                    + " table before the services start, so events published before " + group + " first starts would"
                    + " be lost or the table would be wrong: change the handlers or the table, together.");
        }
    }

    /** The binder reads the extended (RabbitMQ) properties when it binds, after this. */
    @Override
    public void customize(Binder<?, ?, ?> binder, String binderName) {
        if (binder instanceof ExtendedPropertiesBinder<?, ?, ?> extended
                && extended.getExtendedConsumerProperties(NAME) instanceof RabbitConsumerProperties rabbit
                && rabbit.getBindingRoutingKey() == null) {
            rabbit.setBindingRoutingKey(routingKeys);
            rabbit.setBindingRoutingKeyDelimiter(",");
        }
        if (batch.enabled() && binder instanceof ExtendedPropertiesBinder<?, ?, ?> extended
                && extended.getExtendedConsumerProperties(NAME) instanceof RabbitConsumerProperties rabbit
                && rabbit.getPrefetch() < 2 * batch.size()) {
            log.warn("messaging.inbox.batch.size is {} but the prefetch only {}: the next batch cannot gather while "
                    + "one is in flight (a prefetch of twice the size can)", batch.size(), rabbit.getPrefetch());
        }
    }
}
