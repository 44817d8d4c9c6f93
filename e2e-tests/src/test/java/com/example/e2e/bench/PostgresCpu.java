package com.example.e2e.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL's CPU split by what its processes do, told from their process titles ({@code /proc/<pid>/cmdline},
 * which PostgreSQL rewrites: {@code postgres: [cluster: ]user database host activity} for a backend,
 * {@code postgres: [cluster: ]walwriter} for a helper): the backends of each database, the benchmark's own backends
 * (its superuser's), autovacuum, the WAL writer, the checkpointer with the background writer, and the rest. Each of
 * the postmaster's children counts with its own descendants ({@link ProcessCpu#treeTicks}); the rest is the
 * postmaster's own CPU, what its children that ended used (a backend or an autovacuum worker that ends between two
 * snapshots leaves its CPU in the postmaster's reaped-children time, no longer under its name) and the helpers not
 * named here. The categories add up to what {@link ProcessCpu} counts for PostgreSQL between two readings.
 */
final class PostgresCpu {

    static final String BENCHMARK = "the benchmark's own connections";
    static final String AUTOVACUUM = "autovacuum";
    static final String WAL_WRITER = "WAL writer";
    static final String CHECKPOINTS = "checkpointer and background writer";
    static final String REST = "the postmaster, processes that ended, other helpers";
    private static final String TITLE_PREFIX = "postgres: ";

    private PostgresCpu() {
    }

    /**
     * PostgreSQL's processes at one moment: each child of the postmaster by pid, with its category and its ticks
     * (its descendants' included), and the postmaster's own ticks with what its children that ended used.
     */
    record Reading(Map<Long, Child> children, long postmasterTicks) {
    }

    /** A child of the postmaster: its category ({@link #category}) and its CPU ticks so far. */
    record Child(String category, long ticks) {
    }

    /**
     * Reads PostgreSQL's processes.
     *
     * @param postmaster the postmaster's pid
     * @param databases  the databases whose backends are counted apart
     * @param benchUser  the role the benchmark connects as; its backends count apart, whatever their database
     */
    static Reading read(long postmaster, List<String> databases, String benchUser) {
        Map<Long, ProcessCpu.Stat> stats = ProcessCpu.readAll();
        ProcessCpu.Stat root = stats.get(postmaster);
        if (root == null) {
            throw new IllegalStateException("PostgreSQL (pid " + postmaster + ") is not running");
        }
        Map<Long, Child> children = new LinkedHashMap<>();
        for (ProcessCpu.Stat child : stats.values()) {
            if (child.parent() == postmaster && child.pid() != postmaster) {
                children.put(child.pid(), new Child(category(title(child.pid()), databases, benchUser),
                        ProcessCpu.treeTicks(stats, child.pid())));
            }
        }
        return new Reading(Map.copyOf(children), root.ownTicks() + root.reapedChildrenTicks());
    }

    /**
     * The ticks each category used between two readings: the databases' backends first, in the order given, then the
     * categories above. A child that ended in between left all its CPU in the postmaster's reaped-children time,
     * also what it had used before the first reading; that part comes out of {@link #REST}, which the later reading
     * counts it in, not out of the child's own category, which would then go below zero.
     */
    static Map<String, Long> between(Reading start, Reading end, List<String> databases) {
        Map<String, Long> ticks = new LinkedHashMap<>();
        databases.forEach(database -> ticks.put(database, 0L));
        List.of(BENCHMARK, AUTOVACUUM, WAL_WRITER, CHECKPOINTS, REST).forEach(category -> ticks.put(category, 0L));
        ticks.merge(REST, end.postmasterTicks() - start.postmasterTicks(), Long::sum);
        end.children().forEach((pid, child) -> {
            Child before = start.children().get(pid);
            ticks.merge(child.category(), child.ticks() - (lived(before, child) ? before.ticks() : 0), Long::sum);
        });
        start.children().forEach((pid, child) -> {
            if (!lived(child, end.children().get(pid))) {
                // Ended (its pid perhaps taken by a new process since).
                ticks.merge(REST, -child.ticks(), Long::sum);
            }
        });
        return ticks;
    }

    /** Whether the process of the first reading is the one of the later reading, with the same pid. */
    private static boolean lived(Child before, Child after) {
        return before != null && after != null && before.category().equals(after.category())
                && before.ticks() <= after.ticks();
    }

    /** The category of a PostgreSQL process by its title; {@link #REST} for anything not recognised. */
    static String category(String title, List<String> databases, String benchUser) {
        String rest = title.strip();
        if (rest.startsWith(TITLE_PREFIX)) {
            rest = rest.substring(TITLE_PREFIX.length());
        }
        String[] words = rest.split("\\s+");
        // A cluster name, when the server has one, comes first and ends with a colon.
        int first = words.length > 0 && words[0].endsWith(":") ? 1 : 0;
        String what = String.join(" ", List.of(words).subList(first, words.length));
        if (what.startsWith("autovacuum")) {
            return AUTOVACUUM;
        }
        if (what.startsWith("walwriter")) {
            return WAL_WRITER;
        }
        if (what.startsWith("checkpointer") || what.startsWith("background writer")) {
            return CHECKPOINTS;
        }
        if (words.length >= first + 2) {
            String user = words[first];
            String database = words[first + 1];
            if (user.equals(benchUser)) {
                return BENCHMARK;
            }
            if (databases.contains(database)) {
                return database;
            }
        }
        return REST;
    }

    /** The process's title; empty if it ended meanwhile (its CPU then is its parent's, under {@link #REST}). */
    private static String title(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException gone) {
            return "";
        }
    }
}
