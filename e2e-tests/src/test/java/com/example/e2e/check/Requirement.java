package com.example.e2e.check;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import com.example.e2e.nemesis.FaultKind;
import com.example.e2e.topology.Service;

/**
 * Something a scenario's evidence must show for the scenario to count: a fault that did not exercise
 * its window proves nothing, so the scenario fails.
 */
public record Requirement(String description, Predicate<Evidence> check) {

    public static Requirement fault(FaultKind kind) {
        return new Requirement("at least one " + kind + " that bit",
                evidence -> evidence.faults().stream().anyMatch(fault -> fault.kind() == kind && fault.bit()));
    }

    /** A crash point was reached in an instance of the service (exit code 86 and the log line). */
    public static Requirement crashedAt(Service service, String point) {
        return new Requirement(service + " halted at crash point " + point,
                evidence -> evidence.faults().stream().anyMatch(fault -> fault.kind() == FaultKind.CRASH_POINT
                        && fault.bit() && fault.detail().equals(point) && fault.target().startsWith(service.moduleName())));
    }

    public static Requirement duplicatesSuppressedIn(Service... services) {
        List<Service> all = Arrays.asList(services);
        return new Requirement("duplicates delivered and suppressed in " + all,
                evidence -> all.stream().allMatch(service -> evidence.duplicatesIn(service) > 0));
    }

    /** Duplicates delivered and suppressed in at least one of the services: whichever consumed the batch. */
    public static Requirement duplicatesSuppressedInAnyOf(Service... services) {
        List<Service> any = Arrays.asList(services);
        return new Requirement("duplicates delivered and suppressed in one of " + any,
                evidence -> any.stream().anyMatch(service -> evidence.duplicatesIn(service) > 0));
    }

    public static Requirement replaysAfterRetry() {
        return new Requirement("a retried request answered as a replay (Idempotent-Replayed)",
                evidence -> evidence.replaysAfterRetry() > 0);
    }

    public static Requirement retriedIntents() {
        return new Requirement("clients had to retry (the fault cut requests)", evidence -> evidence.retriedIntents() > 0);
    }

    public static Requirement refundedCancellations() {
        return new Requirement("a user cancelled an order that had been paid for, and it was refunded",
                evidence -> evidence.refundedCancellations() > 0);
    }

    boolean isMetBy(Evidence evidence) {
        return check.test(evidence);
    }
}
