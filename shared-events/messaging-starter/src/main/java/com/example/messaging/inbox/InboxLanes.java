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

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.support.AmqpHeaders;
import org.springframework.messaging.Message;

/**
 * Batches that form by themselves ("smart batching"): the listener thread hands each delivery to the lane of its
 * channel and goes straight back to the broker for the next one; one drain per lane applies what has gathered, up to
 * {@code size} deliveries at a time, and takes the next batch when that one is done. A delivery that arrives while
 * nothing is in flight is applied at once, alone; deliveries that arrive while a batch is in flight make up the next
 * one. So a batch costs no waiting (no linger, no timer), an idle consumer costs nothing, and under load the batches
 * grow with the load. The channel's prefetch bounds what a lane holds.
 *
 * <p>One lane per channel, and one drain at a time per lane, which is what lets a batch be acknowledged with one
 * {@code basic.ack multiple}: the broker delivers on a channel in tag order, a lane takes its deliveries first in first
 * out, and a batch is settled (acknowledged, dead-lettered or handed back) before its lane takes the next, so every
 * earlier delivery of the channel is settled by the time a batch ends.
 *
 * <p>Stopping (before the binding stops, see {@link Inbox#getPhase()}): deliveries that arrive from then on are left
 * unacknowledged, and no lane takes another batch; the broker gives the deliveries back to the queue when the binding
 * closes its channels. A batch in flight gets {@code stopTimeout} to end; then its drain is interrupted, which hands
 * its deliveries back to the queue as the listener thread's interruption does for a single delivery.
 */
final class InboxLanes {

    private static final Logger log = LoggerFactory.getLogger(InboxLanes.class);

    private final int size;
    private final Duration stopTimeout;
    private final Consumer<List<Message<byte[]>>> batches;
    private final Map<Object, ArrayDeque<Message<byte[]>>> lanes = new ConcurrentHashMap<>();
    private final AtomicInteger threads = new AtomicInteger();
    private volatile ExecutorService drains;
    private volatile boolean closing;

    /**
     * @param size        the most deliveries per batch
     * @param stopTimeout how long stopping waits for the batches in flight
     * @param batches     applies and settles one batch, all from one channel, in delivery order
     */
    InboxLanes(int size, Duration stopTimeout, Consumer<List<Message<byte[]>>> batches) {
        this.size = size;
        this.stopTimeout = stopTimeout;
        this.batches = batches;
        this.drains = newDrains();
    }

    /** Called on the listener thread: queues the delivery on its channel's lane, starting a drain if none runs. */
    void offer(Message<byte[]> delivery) {
        if (closing) {
            log.debug("Stopping: delivery {} stays unacknowledged and goes back to the queue with its channel",
                    delivery.getHeaders().get(AmqpHeaders.DELIVERY_TAG));
            return;
        }
        Object channel = Acknowledgement.channelOf(delivery);
        boolean[] started = { false };
        lanes.compute(channel, (key, lane) -> {
            if (lane == null) {
                lane = new ArrayDeque<>();
                started[0] = true;
            }
            lane.add(delivery);
            return lane;
        });
        if (started[0]) {
            drains.execute(() -> drain(channel));
        }
    }

    /**
     * Applies the lane's batches until the lane is empty, then removes it, in one step with the check, so that a
     * delivery offered afterwards starts a new drain.
     */
    private void drain(Object channel) {
        while (!closing && !Thread.currentThread().isInterrupted()) {
            List<Message<byte[]>> batch = new ArrayList<>(size);
            lanes.computeIfPresent(channel, (key, lane) -> {
                while (batch.size() < size && !lane.isEmpty()) {
                    batch.add(lane.poll());
                }
                return batch.isEmpty() ? null : lane;
            });
            if (batch.isEmpty()) {
                return;
            }
            try {
                batches.accept(batch);
            } catch (RuntimeException unexpected) {
                handBack(channel, batch, unexpected);
                return;
            }
        }
    }

    /**
     * The batch path settles every delivery itself, so this is a bug; but the lane must not stall, and no later
     * {@code basic.ack multiple} may cover a delivery of this batch that was never applied. So the batch and what
     * waits behind it go back to the queue in one {@code basic.nack multiple} (deliveries of the batch already settled
     * are not affected), and the lane is removed: the next delivery on the channel starts a new drain.
     */
    private void handBack(Object channel, List<Message<byte[]>> batch, RuntimeException unexpected) {
        List<Message<byte[]>> waiting = new ArrayList<>();
        lanes.computeIfPresent(channel, (key, lane) -> {
            waiting.addAll(lane);
            return null;
        });
        Message<byte[]> last = waiting.isEmpty() ? batch.get(batch.size() - 1) : waiting.get(waiting.size() - 1);
        log.error("A batch of {} deliveries failed unexpectedly; it and the {} waiting behind it go back to the queue",
                batch.size(), waiting.size(), unexpected);
        Acknowledgement.of(last).requeueThrough();
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
