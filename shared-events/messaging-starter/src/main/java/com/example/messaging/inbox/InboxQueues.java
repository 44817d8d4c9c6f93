package com.example.messaging.inbox;

import java.util.Arrays;
import java.util.List;

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

    public List<String> deadLetterQueues() {
        return queues.stream().map(Subscriptions::deadLetterQueueName).toList();
    }
}
