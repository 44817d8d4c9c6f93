package com.example.e2e.check;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;
import com.example.e2e.topology.Topology;

/**
 * Evidence from the services' logs, counted from marks taken when a scenario began: each inbox logs
 * (at DEBUG, which the harness turns on) every duplicate it acknowledges without effect. Logs survive
 * kills, unlike the processes' metrics, which restart at zero.
 */
public final class LogEvidence {

    private static final Pattern DUPLICATE = Pattern.compile("Duplicate event \\S+ \\(\\w+\\) acknowledged without effect");

    private final Topology topology;
    private final Map<ServiceNode, Long> marks = new HashMap<>();

    private LogEvidence(Topology topology) {
        this.topology = topology;
        topology.nodes().forEach(node -> marks.put(node, node.log().mark()));
    }

    public static LogEvidence markNow(Topology topology) {
        return new LogEvidence(topology);
    }

    /** Duplicates suppressed since the mark, per service (every instance, including ones started later). */
    public Map<Service, Long> duplicatesSuppressed() {
        Map<Service, Long> duplicates = new EnumMap<>(Service.class);
        for (Service service : Service.ours()) {
            duplicates.put(service, 0L);
        }
        for (ServiceNode node : topology.nodes()) {
            String text = node.log().since(marks.getOrDefault(node, 0L));
            Matcher matcher = DUPLICATE.matcher(text);
            long count = 0;
            while (matcher.find()) {
                count++;
            }
            duplicates.merge(node.service(), count, Long::sum);
        }
        return duplicates;
    }
}
