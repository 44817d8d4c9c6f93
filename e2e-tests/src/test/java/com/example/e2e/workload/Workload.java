package com.example.e2e.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * N concurrent clients working through a list of intents, optionally paced so that a run lasts long
 * enough for faults to land in the middle of it. Each client places one intent at a time (with its
 * retries) and records its history. Progress is readable while it runs.
 */
public final class Workload {

    private final OrderClient client;
    private final int clients;
    private final double intentsPerSecond;
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger acked = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger unknown = new AtomicInteger();
    private final AtomicLong retried = new AtomicLong();

    /** @param intentsPerSecond at most this many intents start per second; 0 for as fast as the clients go */
    public Workload(OrderClient client, int clients, double intentsPerSecond) {
        this.client = client;
        this.clients = clients;
        this.intentsPerSecond = intentsPerSecond;
    }

    /** Places every intent and returns when all have an outcome. */
    public History run(List<Intent> intents) {
        ConcurrentLinkedQueue<Intent> queue = new ConcurrentLinkedQueue<>(intents);
        List<IntentHistory> histories = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(clients, runnable -> {
            Thread thread = new Thread(runnable, "e2e-client");
            thread.setDaemon(true);
            return thread;
        });
        long begin = System.nanoTime();
        AtomicInteger issued = new AtomicInteger();
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                workers.add(pool.submit(() -> {
                    Intent intent;
                    while ((intent = queue.poll()) != null) {
                        pace(begin, issued.getAndIncrement());
                        started.incrementAndGet();
                        IntentHistory history = client.place(intent);
                        count(history);
                        histories.add(history);
                    }
                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a client failed", e.getCause());
        } finally {
            pool.shutdownNow();
            awaitTermination(pool);
        }
        return new History(histories);
    }

    /** e.g. {@code 812/2000 intents: 790 acked, 3 failed, 0 unknown, 41 retried}; total 0 when open-ended. */
    public String progress(int total) {
        return String.format("%d%s intents: %d acked, %d failed, %d unknown, %d retried", started.get(),
                total > 0 ? "/" + total : "", acked.get(), failed.get(), unknown.get(), retried.get());
    }

    public int finished() {
        return acked.get() + failed.get() + unknown.get();
    }

    private void count(IntentHistory history) {
        switch (history.outcome()) {
            case ACKED -> acked.incrementAndGet();
            case FAILED -> failed.incrementAndGet();
            case UNKNOWN -> unknown.incrementAndGet();
        }
        if (history.retried()) {
            retried.incrementAndGet();
        }
    }

    private void pace(long begin, int index) {
        if (intentsPerSecond <= 0) {
            return;
        }
        long due = begin + (long) (index / intentsPerSecond * 1_000_000_000L);
        long wait = due - System.nanoTime();
        if (wait > 0) {
            LockSupport.parkNanos(wait);
        }
    }

    private static void awaitTermination(ExecutorService pool) {
        try {
            pool.awaitTermination(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
