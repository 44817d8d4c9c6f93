package com.example.e2e.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Settings that might make an order cheaper, each measured by the benchmark's lever phase: every service restarted
 * with the lever's settings, warmed up, and the cost of an order measured as for the baseline (see {@link Bench}).
 * A lever goes here once; {@code -Dbench.levers=a,b} (or {@code ./stack bench --levers a,b}) picks some of them.
 */
final class Levers {

    /**
     * @param name        how {@code bench.levers} and the report name it
     * @param description what it changes, and why it might pay
     * @param properties  Spring properties given to every service (as command-line arguments, over all others)
     * @param jvmOptions  JVM options given to every service, after the others (a later option wins)
     */
    record Lever(String name, String description, Map<String, String> properties, List<String> jvmOptions) {
    }

    static final List<Lever> ALL = List.of(
            new Lever("context-propagation=limited",
                    "Reactor restores thread-locals (the request id in the logging MDC) only in its handle and tap "
                            + "operators, not on every thread hop as the shared default (auto) does: cheaper, but most "
                            + "log lines lose the request id",
                    Map.of("spring.reactor.context-propagation", "limited"), List.of()));

    private Levers() {
    }

    /**
     * The levers {@code bench.levers} names: all of them when it is empty, none for {@code none}, else those named,
     * comma-separated, in that order.
     */
    static List<Lever> select(String names) {
        String trimmed = names == null ? "" : names.strip();
        if (trimmed.isEmpty()) {
            return ALL;
        }
        if (trimmed.equals("none")) {
            return List.of();
        }
        List<Lever> selected = new ArrayList<>();
        for (String name : Arrays.stream(trimmed.split(",")).map(String::strip).filter(n -> !n.isEmpty()).toList()) {
            selected.add(ALL.stream().filter(lever -> lever.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("bench.levers: no lever " + name + "; there are "
                            + ALL.stream().map(Lever::name).toList() + ", or none")));
        }
        return List.copyOf(selected);
    }
}
