package com.example.e2e.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.e2e.topology.ProcessTopology;

/**
 * The system with no load: what each process keeps using (the relays' polls, timers, the broker's statistics) as a
 * share of one core, and each service's resident memory at the end.
 */
final class IdlePhase {

    private static final Logger log = LoggerFactory.getLogger(IdlePhase.class);
    private static final double QUIET_PERCENT = 5;

    private IdlePhase() {
    }

    /**
     * Waits until the last requests' after-effects (their GC, their JIT compilations) are over: every process of the
     * system used less than {@value #QUIET_PERCENT}% of a core over the last second. Gives up after a minute (the
     * idle figures then show what kept going).
     */
    static void awaitQuiet(ProcessTopology topology) {
        AtomicReference<ProcessCpu.Snapshot> previous = new AtomicReference<>(
                ProcessCpu.read(CostPhase.systemProcesses(topology)));
        try {
            Awaitility.await("the system is quiet").atMost(Duration.ofMinutes(1)).pollDelay(Duration.ofSeconds(1))
                    .pollInterval(Duration.ofSeconds(1)).until(() -> {
                        ProcessCpu.Snapshot now = ProcessCpu.read(previous.get().tracked());
                        double millis = now.secondsSince(previous.get()) * 1000;
                        boolean quiet = now.millisSince(previous.get()).values().stream()
                                .allMatch(used -> used / millis * 100 < QUIET_PERCENT);
                        previous.set(now);
                        return quiet;
                    });
        } catch (ConditionTimeoutException e) {
            log.warn("[bench] the system did not become quiet within a minute; measuring idle anyway");
        }
    }

    static BenchResult.Idle measure(ProcessTopology topology, Duration idle) throws InterruptedException {
        ProcessCpu.Snapshot before = ProcessCpu.read(CostPhase.systemProcesses(topology));
        Thread.sleep(idle.toMillis());
        ProcessCpu.Snapshot after = ProcessCpu.read(before.tracked());
        double seconds = after.secondsSince(before);
        Map<String, Double> percent = new LinkedHashMap<>();
        after.millisSince(before).forEach((name, millis) -> percent.put(name, millis / (seconds * 1000) * 100));
        return new BenchResult.Idle(seconds, percent, CostPhase.residentBytes(topology));
    }
}
