package com.example.service.faults;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Halts the JVM at a named point when configured to ({@code faults.crash-at=point} or {@code point@N}
 * for the Nth time the point is reached). {@link Runtime#halt} skips shutdown hooks and lets no
 * transaction, ack or response complete: it is as close to {@code kill -9} as a process can do to itself.
 * The points themselves are {@link CrashPoint}s declared by the modules that own them.
 */
public final class CrashPoints {

    /** Exit status of a deliberate crash, so a harness can tell it from any other death. */
    public static final int EXIT_CODE = 86;

    private static final Logger log = LoggerFactory.getLogger(CrashPoints.class);

    private final Map<String, Integer> armed;
    private final Map<String, AtomicInteger> reached = new ConcurrentHashMap<>();
    private final IntConsumer halt;

    private CrashPoints(Map<String, Integer> armed, IntConsumer halt) {
        this.armed = Collections.unmodifiableMap(armed);
        this.halt = halt;
    }

    /**
     * Parses a {@code faults.crash-at} value against the points this process declares; an unknown point or a
     * bad count is refused at start-up.
     */
    public static CrashPoints parse(String spec, Collection<CrashPoint> declared) {
        return parse(spec, declared, status -> Runtime.getRuntime().halt(status));
    }

    static CrashPoints parse(String spec, Collection<CrashPoint> declared, IntConsumer halt) {
        Set<String> known = declared.stream().map(CrashPoint::name).collect(Collectors.toCollection(TreeSet::new));
        Map<String, Integer> armed = new LinkedHashMap<>();
        if (spec != null) {
            for (String item : spec.split(",")) {
                String entry = item.strip();
                if (entry.isEmpty()) {
                    continue;
                }
                int at = entry.indexOf('@');
                String point = at < 0 ? entry : entry.substring(0, at);
                int nth = at < 0 ? 1 : parseCount(entry, entry.substring(at + 1));
                if (!known.contains(point)) {
                    throw new IllegalArgumentException("faults.crash-at: unknown crash point '" + point
                            + "'; this process has " + known);
                }
                armed.put(point, nth);
            }
        }
        return new CrashPoints(armed, halt);
    }

    public static CrashPoints none() {
        return new CrashPoints(Map.of(), status -> { });
    }

    private static int parseCount(String entry, String count) {
        try {
            int nth = Integer.parseInt(count);
            if (nth >= 1) {
                return nth;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the error below
        }
        throw new IllegalArgumentException("faults.crash-at: '" + entry + "' needs a count >= 1 after '@'");
    }

    public boolean isArmed() {
        return !armed.isEmpty();
    }

    public Map<String, Integer> armed() {
        return armed;
    }

    /** Called by the code at a crash point; halts the process if this is the configured occurrence. */
    public void reach(CrashPoint point) {
        Integer nth = armed.get(point.name());
        if (nth == null) {
            return;
        }
        int count = reached.computeIfAbsent(point.name(), p -> new AtomicInteger()).incrementAndGet();
        if (count == nth) {
            log.error("CRASH POINT {} reached (occurrence {}): halting with exit code {}", point, count, EXIT_CODE);
            halt.accept(EXIT_CODE);
        }
    }
}
