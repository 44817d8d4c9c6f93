package com.example.e2e.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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

    record Result(Throughput throughput, Latencies latency, int errors) {
    }

    private ClosedLoop() {
    }

    static Result run(String name, int workers, Duration warmup, Duration measure, WorkerFactory factory) {
        List<Worker> created = new ArrayList<>();
        try {
            for (int i = 0; i < workers; i++) {
                created.add(factory.create(i));
            }
            return measure(name, created, warmup, measure);
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

    private static Result measure(String name, List<Worker> workers, Duration warmup, Duration measure)
            throws InterruptedException {
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
        done.await();
        if (crash.get() != null) {
            throw new IllegalStateException(name + ": a worker failed", crash.get());
        }
        long[] measured = latencies.toArray();
        return new Result(new Throughput(measured.length, measure.toNanos() / 1e9), Latencies.ofNanos(measured),
                errors.get());
    }
}
