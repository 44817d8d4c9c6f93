package com.example.e2e.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.awaitility.Awaitility;

import com.example.e2e.nemesis.Nemesis;
import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;
import com.example.e2e.topology.Topology;

/**
 * What a scenario's fault script works with while the workload runs: the nemesis, the topology, the
 * workload's progress (to strike mid-flow), and extra instances that live only as long as the scenario.
 */
final class ScenarioRun {

    private final Topology topology;
    private final Nemesis nemesis;
    private final IntSupplier finished;
    private final int total;
    private final Supplier<Map<Service, Long>> duplicates;
    private final List<ServiceNode> extras = new CopyOnWriteArrayList<>();
    private volatile boolean workloadDone;
    private volatile boolean heldOpen;

    ScenarioRun(Topology topology, Nemesis nemesis, IntSupplier finished, int total,
            Supplier<Map<Service, Long>> duplicates) {
        this.topology = topology;
        this.nemesis = nemesis;
        this.finished = finished;
        this.total = total;
        this.duplicates = duplicates;
    }

    Topology topology() {
        return topology;
    }

    Nemesis nemesis() {
        return nemesis;
    }

    ServiceNode node(Service service) {
        return topology.node(service);
    }

    /** A further instance of a service for this scenario only; killed when the scenario heals. */
    ServiceNode extraInstance(Service service) {
        ServiceNode node = topology.addInstance(service);
        extras.add(node);
        return node;
    }

    List<ServiceNode> extras() {
        return List.copyOf(extras);
    }

    /** Waits until this share of the intents has an outcome, so a fault lands in the middle of the flow. */
    void awaitProgress(double share) {
        int target = (int) Math.ceil(total * share);
        Awaitility.await(target + " of " + total + " intents finished").atMost(Duration.ofMinutes(5))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                .until(() -> workloadDone || finished.getAsInt() >= target);
    }

    /** Duplicates each service's inbox has suppressed so far in this scenario (read from the logs, as the checker does). */
    Map<Service, Long> duplicatesSuppressed() {
        return duplicates.get();
    }

    boolean workloadDone() {
        return workloadDone;
    }

    /**
     * Keeps the workload going past its planned intents (more of the same mix) until {@link #releaseWorkload()}:
     * for faults that need traffic to prove themselves and must all have happened before the clients stop.
     */
    void holdWorkloadOpen() {
        heldOpen = true;
    }

    void releaseWorkload() {
        heldOpen = false;
    }

    boolean isHeldOpen() {
        return heldOpen;
    }

    void markWorkloadDone() {
        workloadDone = true;
    }
}
