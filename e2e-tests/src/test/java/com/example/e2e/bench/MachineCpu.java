package com.example.e2e.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How busy the whole machine was: the first line of {@code /proc/stat}, the time of all its cores in clock ticks by
 * what it went to. {@link ProcessCpu} counts what the measured processes used; this counts everything the machine ran
 * (the benchmark's own JVM and whatever else shares it too), and the time a hypervisor gave this virtual machine's
 * cores to other machines (steal). A phase that keeps the cores nearly always busy measures queues, not its path.
 */
final class MachineCpu {

    private static final Path STAT = Path.of("/proc/stat");

    /** Ticks of all cores since boot: busy (user, nice, system, irq, softirq), stolen, and in all. */
    record Snapshot(long busy, long steal, long total) {
    }

    private MachineCpu() {
    }

    static Snapshot read() {
        try (var lines = Files.lines(STAT)) {
            return parse(lines.findFirst().orElseThrow(() -> new IllegalStateException(STAT + " is empty")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param line {@code cpu  user nice system idle iowait irq softirq steal guest guest_nice}; the guest times are
     *             already in user and nice, and a kernel that lacks the later fields counts them as 0
     */
    static Snapshot parse(String line) {
        String[] fields = line.trim().split("\\s+");
        if (!fields[0].equals("cpu")) {
            throw new IllegalArgumentException("not the all-cores line of /proc/stat: " + line);
        }
        long[] ticks = new long[8];
        for (int i = 0; i < ticks.length && i + 1 < fields.length; i++) {
            ticks[i] = Long.parseLong(fields[i + 1]);
        }
        long busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6];
        long steal = ticks[7];
        return new Snapshot(busy, steal, busy + ticks[3] + ticks[4] + steal);
    }

    /** Shares of all cores' time: busy, and stolen. */
    record Shares(double busy, double steal) {
    }

    /** The shares of all cores' time between two snapshots that were busy and that were stolen. */
    static Shares between(Snapshot before, Snapshot after) {
        double total = after.total() - before.total();
        if (total <= 0) {
            return new Shares(0, 0);
        }
        return new Shares((after.busy() - before.busy()) / total, (after.steal() - before.steal()) / total);
    }
}
