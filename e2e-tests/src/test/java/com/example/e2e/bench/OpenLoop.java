package com.example.e2e.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * An open loop: requests start on a fixed schedule whether or not earlier ones have been answered, as
 * users arrive. A slow system gets the same load (and its queueing shows in the latencies) instead of
 * slowing the load down, as a closed loop would.
 */
final class OpenLoop {

    private OpenLoop() {
    }

    /**
     * Starts {@code count} requests, {@code 1 / perSecond} apart, and waits for all of them.
     *
     * @param request starts request number {@code i} and returns its answer to come
     */
    static <T> List<T> run(double perSecond, int count, Duration patience, IntFunction<CompletableFuture<T>> request) {
        List<CompletableFuture<T>> answers = new ArrayList<>(count);
        long start = System.nanoTime();
        double interval = 1e9 / perSecond;
        for (int i = 0; i < count; i++) {
            long due = start + Math.round(i * interval);
            long wait = due - System.nanoTime();
            while (wait > 0) {
                LockSupport.parkNanos(wait);
                wait = due - System.nanoTime();
            }
            answers.add(request.apply(i));
        }
        CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).orTimeout(patience.toMillis(),
                TimeUnit.MILLISECONDS).join();
        return answers.stream().map(CompletableFuture::join).toList();
    }
}
