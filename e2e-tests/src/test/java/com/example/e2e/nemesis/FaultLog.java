package com.example.e2e.nemesis;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/** Every fault injected during a scenario, in order. */
public final class FaultLog {

    private final List<Fault> faults = new CopyOnWriteArrayList<>();

    void add(Fault fault) {
        faults.add(fault);
    }

    public List<Fault> faults() {
        return List.copyOf(faults);
    }

    public Map<FaultKind, Long> byKind() {
        return faults.stream().collect(Collectors.groupingBy(Fault::kind, Collectors.counting()));
    }

    public int size() {
        return faults.size();
    }
}
