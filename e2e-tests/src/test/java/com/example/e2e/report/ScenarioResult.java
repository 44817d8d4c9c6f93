package com.example.e2e.report;

import java.util.List;
import java.util.Map;

/**
 * What one scenario did and how it was judged; plain values, written to the report as they are.
 *
 * @param intents              intents by outcome: ACKED, FAILED, UNKNOWN
 * @param orders               the scenario's orders by final status
 * @param faults               faults by kind
 * @param faultLog             every fault with its proof, in order
 * @param duplicatesSuppressed duplicate deliveries each service's inbox recognised and acknowledged without effect
 * @param redelivered          deliveries the broker flagged as redelivered, per queue with any
 * @param clientReplays        responses marked Idempotent-Replayed (retries and double submits)
 * @param replaysAfterRetry    intents whose retry after a lost answer was answered as a replay
 * @param quietAfterSeconds    how long the system took to go quiet after the workload and the faults
 */
public record ScenarioResult(String name, String description, boolean passed, double durationSeconds,
        Map<String, Long> intents, long attempts, long retriedIntents, long clientReplays, long replaysAfterRetry,
        Map<String, Long> orders, Map<String, Long> faults, List<String> faultLog, Map<String, Long> duplicatesSuppressed,
        Map<String, Long> redelivered, double quietAfterSeconds, List<InvariantResult> invariants) {

    public ScenarioResult {
        intents = Map.copyOf(intents);
        orders = Map.copyOf(orders);
        faults = Map.copyOf(faults);
        faultLog = List.copyOf(faultLog);
        duplicatesSuppressed = Map.copyOf(duplicatesSuppressed);
        redelivered = Map.copyOf(redelivered);
        invariants = List.copyOf(invariants);
    }

    /** One invariant's verdict as the report shows it. */
    public record InvariantResult(String invariant, String sentence, boolean passed, long violationCount,
            List<String> violations) {

        public InvariantResult {
            violations = List.copyOf(violations);
        }
    }

    public long intents(String outcome) {
        return intents.getOrDefault(outcome, 0L);
    }
}
