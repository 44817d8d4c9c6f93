package com.example.e2e.check;

import java.util.List;
import java.util.Map;

import com.example.e2e.nemesis.Fault;
import com.example.e2e.topology.Service;

/**
 * What shows that the faults of a scenario bit: the faults with their proofs, the duplicate deliveries
 * each service's inbox recognised and suppressed (counted in its log), the broker's redeliveries, and
 * the client's replays, and the cancellations that came after the order had been paid for.
 *
 * @param duplicatesSuppressed inbox log lines "Duplicate event ... acknowledged without effect", per service
 * @param redelivered          deliveries the broker flagged as redelivered, per queue (lost on a broker kill)
 * @param replays              responses marked Idempotent-Replayed
 * @param replaysAfterRetry    intents whose retry after a lost answer was answered as a replay
 * @param retriedIntents       intents that needed more than one request
 * @param refundedCancellations CANCELLED orders whose payment was refunded: cancellations that lost the race with the
 *                             charge
 */
public record Evidence(List<Fault> faults, Map<Service, Long> duplicatesSuppressed, Map<String, Long> redelivered,
        long replays, long replaysAfterRetry, long retriedIntents, long refundedCancellations) {

    public Evidence {
        faults = List.copyOf(faults);
        duplicatesSuppressed = Map.copyOf(duplicatesSuppressed);
        redelivered = Map.copyOf(redelivered);
    }

    public long duplicatesIn(Service service) {
        return duplicatesSuppressed.getOrDefault(service, 0L);
    }
}
