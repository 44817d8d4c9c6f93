package com.example.e2e.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time of processes as the kernel counts it: {@code utime + stime} of {@code /proc/<pid>/stat}, in clock ticks,
 * all threads included. A server counts with its descendants (PostgreSQL's backends, RabbitMQ's port programs): the
 * live ones' own time, plus what every process of the tree holds of its children that ended ({@code cutime +
 * cstime}, added when a parent reaps a child), so that a backend that ends between two snapshots keeps its CPU in
 * the sum, now in its parent's. The difference of two snapshots is the CPU the tree used in between.
 */
final class ProcessCpu {

    private static final Path PROC = Path.of("/proc");
    private static final long TICKS_PER_SECOND = ticksPerSecond();

    /**
     * A process to measure.
     *
     * @param name            how the report names it, e.g. "order-service", "PostgreSQL"
     * @param withDescendants whether its descendants count too: yes for a server, no for the bench's own JVM, whose
     *                        children are the services
     */
    record Tracked(String name, long pid, boolean withDescendants) {
    }

    /** What one {@code /proc/<pid>/stat} says, times in clock ticks. */
    record Stat(long pid, long parent, long ownTicks, long reapedChildrenTicks) {
    }

    /**
     * The CPU ticks of each tracked process at one moment, by name, in the order tracked, and of those ticks the ones
     * of its JIT compiler threads (a JVM's; 0 for a process without them).
     */
    record Snapshot(long nanoTime, List<Tracked> tracked, Map<String, Long> ticks, Map<String, Long> compilerTicks) {

        /** CPU milliseconds of each process from {@code earlier} to this one. */
        Map<String, Double> millisSince(Snapshot earlier) {
            return difference(earlier, ticks, earlier.ticks);
        }

        /** CPU milliseconds of each process's JIT compiler threads from {@code earlier} to this one. */
        Map<String, Double> compilerMillisSince(Snapshot earlier) {
            return difference(earlier, compilerTicks, earlier.compilerTicks);
        }

        private Map<String, Double> difference(Snapshot earlier, Map<String, Long> now, Map<String, Long> before) {
            if (!tracked.equals(earlier.tracked)) {
                throw new IllegalStateException("the processes changed between two CPU snapshots (a restart?): "
                        + earlier.tracked + " then " + tracked);
            }
            Map<String, Double> millis = new LinkedHashMap<>();
            now.forEach((name, ticksNow) -> millis.put(name, ProcessCpu.millis(ticksNow - before.get(name))));
            return millis;
        }

        double secondsSince(Snapshot earlier) {
            return (nanoTime - earlier.nanoTime) / 1e9;
        }
    }

    private ProcessCpu() {
    }

    static Snapshot read(List<Tracked> tracked) {
        Map<Long, Stat> stats = readAll();
        Map<String, Long> ticks = new LinkedHashMap<>();
        Map<String, Long> compilerTicks = new LinkedHashMap<>();
        for (Tracked process : tracked) {
            if (!stats.containsKey(process.pid())) {
                throw new IllegalStateException(process + " is not running");
            }
            ticks.put(process.name(), process.withDescendants() ? treeTicks(stats, process.pid())
                    : stats.get(process.pid()).ownTicks());
            compilerTicks.put(process.name(), compilerTicks(process.pid()));
        }
        return new Snapshot(System.nanoTime(), List.copyOf(tracked), ticks, compilerTicks);
    }

    /**
     * The ticks of the process's JIT compiler threads, which HotSpot names "C1 CompilerThread<i>n</i>" and "C2
     * CompilerThread<i>n</i>" (the kernel keeps the first 15 characters). A thread that ended took its ticks along;
     * HotSpot keeps its compiler threads for the life of the JVM unless told otherwise.
     */
    static long compilerTicks(long pid) {
        long sum = 0;
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(PROC.resolve(Long.toString(pid)).resolve("task"))) {
            for (Path thread : threads) {
                try {
                    String line = Files.readString(thread.resolve("stat"));
                    if (isCompilerThread(line)) {
                        sum += parse(line).ownTicks();
                    }
                } catch (IOException gone) {
                    // ended between the listing and the read
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the threads of process " + pid, e);
        }
        return sum;
    }

    /** Whether a {@code /proc/<pid>/task/<tid>/stat} line is one of a JVM's JIT compiler threads. */
    static boolean isCompilerThread(String statLine) {
        String name = statLine.substring(statLine.indexOf('(') + 1, statLine.lastIndexOf(')'));
        return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
    }

    /** The process's own ticks and its reaped children's, and the same of every live descendant. */
    static long treeTicks(Map<Long, Stat> stats, long root) {
        Map<Long, List<Stat>> children = new HashMap<>();
        stats.values().forEach(stat -> children.computeIfAbsent(stat.parent(), parent -> new ArrayList<>()).add(stat));
        long sum = 0;
        Deque<Stat> pending = new ArrayDeque<>(List.of(stats.get(root)));
        while (!pending.isEmpty()) {
            Stat stat = pending.pop();
            sum += stat.ownTicks() + stat.reapedChildrenTicks();
            pending.addAll(children.getOrDefault(stat.pid(), List.of()));
        }
        return sum;
    }

    /**
     * Parses one {@code /proc/<pid>/stat} line. The command name, in parentheses, may hold spaces and parentheses
     * itself; the fields after its last ')' are state, ppid, ... utime (14th field of the line), stime, cutime, cstime.
     */
    static Stat parse(String line) {
        long pid = Long.parseLong(line.substring(0, line.indexOf(' ')));
        String[] fields = line.substring(line.lastIndexOf(')') + 2).trim().split(" ");
        long parent = Long.parseLong(fields[1]);
        long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        long reaped = Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
        return new Stat(pid, parent, own, reaped);
    }

    /** Every process's stat, by pid. */
    static Map<Long, Stat> readAll() {
        Map<Long, Stat> stats = new HashMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
            for (Path entry : entries) {
                try {
                    Stat stat = parse(Files.readString(entry.resolve("stat")));
                    stats.put(stat.pid(), stat);
                } catch (IOException gone) {
                    // ended between the listing and the read: its parent's cutime holds it once reaped
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + PROC, e);
        }
        return stats;
    }

    /** Clock ticks in milliseconds. */
    static double millis(long ticks) {
        return ticks * 1000.0 / TICKS_PER_SECOND;
    }

    /** {@code getconf CLK_TCK}: 100 on every Linux this runs on, asked all the same. */
    private static long ticksPerSecond() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String answer = new String(getconf.getInputStream().readAllBytes()).strip();
            return getconf.waitFor() == 0 ? Long.parseLong(answer) : 100;
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
