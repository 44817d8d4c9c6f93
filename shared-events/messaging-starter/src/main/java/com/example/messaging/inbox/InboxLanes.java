package com.example.messaging.inbox;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Batches that form by themselves ("smart batching"): the listener thread hands each delivery to a lane and goes
 * straight back to the broker for the next one; one drain per lane applies what has gathered, up to {@code size}
 * deliveries at a time, and takes the next batch when that one is done. A delivery that arrives while its lane has
 * nothing in flight is applied at once, alone; deliveries that arrive while a batch is in flight make up the next
 * one. So a batch costs no waiting (no timer), an idle consumer costs nothing, and under load the batches grow with the
 * load. The channels' prefetch bounds what the lanes hold. Optionally a drain that starts on an idle lane lingers a
 * little before it takes its first batch, so that deliveries about one order that arrive a few milliseconds apart are
 * applied together; the time is spent on the drain's thread, never on the listener's.
 *
 * <p>The caller picks the lane of a delivery ({@link Inbox}: by the order the event is about, so the events of one
 * order, whichever queue and channel they come from, are applied one batch after another and never by two batches
 * at once). A lane takes its deliveries first in first out, one batch at a time.
 *
 * <p>Stopping (before the binding stops, see {@link Inbox#getPhase()}): deliveries that arrive from then on are left
 * unacknowledged, and no lane takes another batch; the broker gives the deliveries back to the queue when the binding
 * closes its channels. A batch in flight gets {@code stopTimeout} to end; then its drain is interrupted, which hands
 * its deliveries back to the queue as the listener thread's interruption does for a single delivery.
 *
 * @param <T> a delivery, with what the batch needs of it
 */
final class InboxLanes<T> {

    private static final Logger log = LoggerFactory.getLogger(InboxLanes.class);

    private final int size;
    private final long lingerNanos;
    private final Predicate<? super T> lingersFor;
    private final Duration stopTimeout;
    private final Consumer<List<T>> batches;
    private final Consumer<T> handBack;
    private final Map<Integer, ArrayDeque<T>> lanes = new ConcurrentHashMap<>();
    private final AtomicInteger threads = new AtomicInteger();
    private volatile ExecutorService drains;
    private volatile boolean closing;
    /** What a lingering drain waits on; stopping wakes it. */
    private final Object lingering = new Object();

    /**
     * @param size        the most deliveries per batch
     * @param linger      how long a drain that starts on an idle lane waits before it takes its first batch (zero: it
     *                    takes it at once)
     * @param lingersFor  whether the delivery that starts a drain makes it linger (one that arrives alone need not)
     * @param stopTimeout how long stopping waits for the batches in flight
     * @param batches     applies and settles one batch, all from one lane, in the order they were offered
     * @param handBack    gives a delivery back to the broker unless it is settled already (after a batch failed
     *                    unexpectedly)
     */
    InboxLanes(int size, Duration linger, Predicate<? super T> lingersFor, Duration stopTimeout,
            Consumer<List<T>> batches, Consumer<T> handBack) {
        this.size = size;
        this.lingerNanos = linger.toNanos();
        this.lingersFor = lingersFor;
        this.stopTimeout = stopTimeout;
        this.batches = batches;
        this.handBack = handBack;
        this.drains = newDrains();
    }

    /**
     * Called on the listener thread: queues the delivery on the lane, starting a drain if none runs.
     *
     * @return false when stopping: the delivery is left unacknowledged and goes back to the queue with its channel
     */
    boolean offer(int lane, T delivery) {
        if (closing) {
            return false;
        }
        boolean[] started = { false };
        lanes.compute(lane, (key, waiting) -> {
            if (waiting == null) {
                waiting = new ArrayDeque<>();
                started[0] = true;
            }
            waiting.add(delivery);
            return waiting;
        });
        if (started[0]) {
            boolean linger = lingerNanos > 0 && lingersFor.test(delivery);
            drains.execute(() -> drain(lane, linger));
        }
        return true;
    }

    /**
     * Applies the lane's batches until the lane is empty, then removes it, in one step with the check, so that a
     * delivery offered afterwards starts a new drain.
     */
    private void drain(int lane, boolean linger) {
        if (linger) {
            awaitLinger();
        }
        while (!closing && !Thread.currentThread().isInterrupted()) {
            List<T> batch = new ArrayList<>(size);
            lanes.computeIfPresent(lane, (key, waiting) -> {
                while (batch.size() < size && !waiting.isEmpty()) {
                    batch.add(waiting.poll());
                }
                return batch.isEmpty() ? null : waiting;
            });
            if (batch.isEmpty()) {
                return;
            }
            try {
                batches.accept(batch);
            } catch (RuntimeException unexpected) {
                handBack(lane, batch, unexpected);
                return;
            }
        }
    }

    /** Waits out the linger, if there is one; stopping ends it at once (and the drain then takes no batch). */
    private void awaitLinger() {
        long deadline = System.nanoTime() + lingerNanos;
        synchronized (lingering) {
            long remaining = lingerNanos;
            try {
                while (remaining > 0 && !closing) {
                    TimeUnit.NANOSECONDS.timedWait(lingering, remaining);
                    remaining = deadline - System.nanoTime();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The batch path settles every delivery itself, so this is a bug; but the lane must not stall. So the batch's
     * deliveries not settled yet and what waits behind them go back to the queue, and the lane is removed: the next
     * delivery starts a new drain.
     */
    private void handBack(int lane, List<T> batch, RuntimeException unexpected) {
        List<T> waiting = new ArrayList<>();
        lanes.computeIfPresent(lane, (key, queued) -> {
            waiting.addAll(queued);
            return null;
        });
        log.error("A batch of {} deliveries failed unexpectedly; it and the {} waiting behind it go back to the queue",
                batch.size(), waiting.size(), unexpected);
        batch.forEach(handBack);
        waiting.forEach(handBack);
    }

    Duration linger() {
        return Duration.ofNanos(lingerNanos);
    }

    /** Whether a delivery is waiting or being applied. */
    boolean busy() {
        return !lanes.isEmpty();
    }

    void start() {
        if (drains.isShutdown()) {
            // What the lanes held belonged to channels the stopped binding has closed.
            lanes.clear();
            drains = newDrains();
        }
        closing = false;
    }

    /** Takes no more deliveries, lets the batches in flight end within the stop timeout, then interrupts them. */
    void stop() {
        closing = true;
        synchronized (lingering) {
            lingering.notifyAll();
        }
        ExecutorService stopping = drains;
        stopping.shutdown();
        try {
            if (!stopping.awaitTermination(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                log.info("Batches still in flight after {}: interrupting them, their deliveries go back to the queue",
                        stopTimeout);
                stopping.shutdownNow();
                stopping.awaitTermination(stopTimeout.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            stopping.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private ExecutorService newDrains() {
        ThreadFactory factory = task -> {
            Thread thread = new Thread(task, "inbox-batch-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        return Executors.newCachedThreadPool(factory);
    }
}
