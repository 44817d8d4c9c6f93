package com.example.messaging.inbox;

import java.util.Arrays;
import java.util.List;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.cloud.stream.binder.rabbit.properties.RabbitCommonProperties;
import org.springframework.core.env.Environment;

import com.example.events.Subscriptions;

/**
 * The queues the inbox consumes from, named as the binder names them: {@code <exchange>.<group>} for each
 * exchange the handlers subscribe to (or the binding's destination, where the configuration sets one), the
 * group being the service's name (the contract's naming, {@link Subscriptions}). Each has its dead-letter queue,
 * {@code .dlq} appended. Empty
 * for a service that consumes nothing, or whose binding has no group (anonymous queues have no dead-letter
 * queue).
 *
 * @param queues the queue names, in the order of the binding's destinations
 */
public record InboxQueues(List<String> queues) {

    private static final String BINDING_CONSUMER = "spring.cloud.stream.rabbit.bindings." + InboxBinding.NAME
            + ".consumer";
    private static final String DEFAULT_CONSUMER = "spring.cloud.stream.rabbit.default.consumer";

    public InboxQueues {
        queues = List.copyOf(queues);
    }

    /** The queues of a consumer binding with these destinations (comma-separated, as bound) and group. */
    static InboxQueues of(String destinations, String group) {
        if (destinations == null || group == null || group.isBlank()) {
            return new InboxQueues(List.of());
        }
        return new InboxQueues(Arrays.stream(destinations.split(","))
                .map(String::trim)
                .filter(destination -> !destination.isEmpty())
                .map(destination -> Subscriptions.queueName(destination, group.trim()))
                .toList());
    }

    /**
     * The exchange the inbox's queues dead-letter through, as the binder resolves it for the inbox's binding: its
     * own setting, else the shared consumer default (the starter's: {@code <service name>.dlx}), else the binder's
     * {@value RabbitCommonProperties#DEAD_LETTER_EXCHANGE}. Each of its queues' dead-letter queue is bound to it with
     * the queue's name; a re-drive goes back through it ({@link Subscriptions#redriveRoutingKey}).
     */
    public static String deadLetterExchange(Environment environment) {
        Binder binder = Binder.get(environment);
        return binder.bind(BINDING_CONSUMER + ".dead-letter-exchange", String.class)
                .orElseGet(() -> binder.bind(DEFAULT_CONSUMER + ".dead-letter-exchange", String.class)
                        .orElse(RabbitCommonProperties.DEAD_LETTER_EXCHANGE));
    }

    public List<String> deadLetterQueues() {
        return queues.stream().map(Subscriptions::deadLetterQueueName).toList();
    }
}
