package com.example.e2e.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import com.example.e2e.topology.ProcessTopology;
import com.example.e2e.topology.Service;

/**
 * The system with no load: what each process keeps using (the relays' polls, timers, the broker's statistics) as a
 * share of one core, and each service's resident memory at the end.
 */
final class IdlePhase {

    private IdlePhase() {
    }

    static BenchResult.Idle measure(ProcessTopology topology, Duration idle) throws InterruptedException {
        ProcessCpu.Snapshot before = ProcessCpu.read(CostPhase.systemProcesses(topology));
        Thread.sleep(idle.toMillis());
        ProcessCpu.Snapshot after = ProcessCpu.read(before.tracked());
        double seconds = after.secondsSince(before);
        Map<String, Double> percent = new LinkedHashMap<>();
        after.millisSince(before).forEach((name, millis) -> percent.put(name, millis / (seconds * 1000) * 100));
        Map<String, Long> resident = new LinkedHashMap<>();
        for (Service service : Service.values()) {
            resident.put(service.moduleName(), topology.node(service).residentMemoryBytes());
        }
        return new BenchResult.Idle(seconds, percent, resident);
    }
}
