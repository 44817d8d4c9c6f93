package com.example.e2e.scenario;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import com.example.e2e.nemesis.FaultLog;
import com.example.e2e.workload.Workload;

/** Prints a long scenario's progress on the console every few seconds: intents, outcomes, faults so far. */
final class ProgressLine {

    private static final Duration EVERY = Duration.ofSeconds(5);

    private final ScheduledExecutorService timer;

    private ProgressLine(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    static ProgressLine start(String name, Workload workload, FaultLog faults, int total) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "e2e-progress");
            thread.setDaemon(true);
            return thread;
        });
        long begin = System.nanoTime();
        timer.scheduleAtFixedRate(() -> {
            long seconds = Duration.ofNanos(System.nanoTime() - begin).toSeconds();
            System.out.printf("[%s %02d:%02d] %s | faults: %d %s%n", name, seconds / 60, seconds % 60,
                    workload.progress(total), faults.size(), faults.byKind());
        }, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
        return new ProgressLine(timer);
    }

    void stop() {
        timer.shutdownNow();
    }
}
