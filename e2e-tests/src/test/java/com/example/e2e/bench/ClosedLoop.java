package com.example.e2e.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A closed loop: a fixed number of workers, each starting its next operation as soon as its last one
 * finished. Operations that finish during the warm-up are not counted; those that finish in the measured
 * window are, with their latency.
 */
final class ClosedLoop {

    private static final Logger log = LoggerFactory.getLogger(ClosedLoop.class);

    /** What one worker does, again and again; it owns what it uses (a connection, say) until closed. */
    interface Worker extends AutoCloseable {

        /** One operation; returns false when it failed in a way the caller counts as an error, not a crash. */
        boolean run() throws Exception;

        @Override
        default void close() throws Exception {
        }
    }

    /** What each worker is made of. */
    interface WorkerFactory {
        Worker create(int index) throws Exception;
    }

    /**
     * @param cpuMillis the CPU each tracked process used over the measured window, by name (empty when none was
     *                  tracked)
     */
    record Result(Throughput throughput, Latencies latency, int errors, Map<String, Double> cpuMillis) {

        /** What each tracked process used per operation counted. */
        Map<String, Double> cpuMillisPerOperation() {
            Map<String, Double> perOperation = new LinkedHashMap<>();
            double operations = Math.max(1, throughput.operations());
            cpuMillis.forEach((process, millis) -> perOperation.put(process, millis / operations));
            return perOperation;
        }
    }

    private ClosedLoop() {
    }

    static Result run(String name, int workers, Duration warmup, Duration measure, WorkerFactory factory) {
        return run(name, workers, warmup, measure, factory, List.of());
    }

    /** The same, reading the CPU of the {@code tracked} processes when the measured window opens and closes. */
    static Result run(String name, int workers, Duration warmup, Duration measure, WorkerFactory factory,
            List<ProcessCpu.Tracked> tracked) {
        List<Worker> created = new ArrayList<>();
        try {
            for (int i = 0; i < workers; i++) {
                created.add(factory.create(i));
            }
            return measure(name, created, warmup, measure, tracked);
        } catch (Exception e) {
            throw new IllegalStateException(name + ": could not set up its workers", e);
        } finally {
            for (Worker worker : created) {
                try {
                    worker.close();
                } catch (Exception e) {
                    log.warn("{}: closing a worker failed: {}", name, e.toString());
                }
            }
        }
    }

    private static Result measure(String name, List<Worker> workers, Duration warmup, Duration measure,
            List<ProcessCpu.Tracked> tracked) throws InterruptedException {
        long start = System.nanoTime();
        long from = start + warmup.toNanos();
        long until = from + measure.toNanos();
        LatencyRecorder latencies = new LatencyRecorder();
        AtomicInteger errors = new AtomicInteger();
        AtomicReference<Throwable> crash = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(workers.size());
        for (Worker worker : workers) {
            Thread thread = new Thread(() -> {
                try {
                    long now = System.nanoTime();
                    while (now < until && crash.get() == null) {
                        boolean ok = worker.run();
                        long finished = System.nanoTime();
                        if (finished >= from && finished < until) {
                            if (ok) {
                                latencies.add(finished - now);
                            } else {
                                errors.incrementAndGet();
                            }
                        }
                        now = finished;
                    }
                } catch (Throwable e) {
                    crash.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }, name + "-worker");
            thread.setDaemon(true);
            thread.start();
        }
        Map<String, Double> cpuMillis = Map.of();
        if (!tracked.isEmpty()) {
            sleepUntil(from);
            ProcessCpu.Snapshot opened = ProcessCpu.read(tracked);
            sleepUntil(until);
            cpuMillis = ProcessCpu.read(tracked).millisSince(opened);
        }
        done.await();
        if (crash.get() != null) {
            throw new IllegalStateException(name + ": a worker failed", crash.get());
        }
        long[] measured = latencies.toArray();
        return new Result(new Throughput(measured.length, measure.toNanos() / 1e9), Latencies.ofNanos(measured),
                errors.get(), cpuMillis);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
