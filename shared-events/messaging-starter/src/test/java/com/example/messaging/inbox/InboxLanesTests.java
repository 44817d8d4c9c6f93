package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How batches form without waiting: the first delivery goes alone, what arrives while a batch is in flight makes up
 * the next ones (in the order offered, at most the size), one batch at a time per lane, lanes side by side; and how
 * stopping leaves new deliveries alone and interrupts a batch that does not end in time. Deliveries are numbers here.
 */
class InboxLanesTests {

    private static final Duration PATIENCE = Duration.ofSeconds(5);

    private final List<List<Long>> batches = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> handedBack = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch release = new CountDownLatch(1);
    private InboxLanes<Long> lanes;

    @AfterEach
    void stop() {
        release.countDown();
        if (lanes != null) {
            lanes.stop();
        }
    }

    @Test
    void whatArrivesWhileABatchIsInFlightMakesUpTheNextBatchesInTheOrderOffered() {
        lanes = lanes(4, PATIENCE, recordingAnd(this::holdTheFirstBatch));

        lanes.offer(0, 1L);
        await().atMost(PATIENCE).until(() -> batches.size() == 1);
        for (long delivery = 2; delivery <= 11; delivery++) {
            lanes.offer(0, delivery);
        }
        release.countDown();

        await().atMost(PATIENCE).until(() -> !lanes.busy());
        assertThat(batches).containsExactly(List.of(1L), List.of(2L, 3L, 4L, 5L), List.of(6L, 7L, 8L, 9L),
                List.of(10L, 11L));
    }

    @Test
    void aDeliveryAfterAQuietSpellGoesAloneAndAtOnce() {
        lanes = lanes(16, PATIENCE, recordingAnd(batch -> { }));

        lanes.offer(0, 1L);
        await().atMost(PATIENCE).until(() -> !lanes.busy());
        lanes.offer(0, 2L);
        await().atMost(PATIENCE).until(() -> !lanes.busy());

        assertThat(batches).containsExactly(List.of(1L), List.of(2L));
    }

    @Test
    void anIdleLaneThatLingersAppliesWhatArrivesMomentsApartTogether() {
        Duration linger = Duration.ofMillis(300);
        List<Long> takenAfterNanos = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        lanes = new InboxLanes<>(16, linger, delivery -> true, PATIENCE, recordingAnd(batch -> takenAfterNanos.add(System.nanoTime()
                - start)), handedBack::add);

        lanes.offer(0, 1L);
        lanes.offer(1, 101L);
        lanes.offer(0, 2L);
        lanes.offer(0, 3L);
        await().atMost(PATIENCE).until(() -> !lanes.busy());

        assertThat(batches).containsExactlyInAnyOrder(List.of(1L, 2L, 3L), List.of(101L));
        assertThat(takenAfterNanos).allSatisfy(nanos -> assertThat(nanos).isGreaterThanOrEqualTo(linger.toNanos()));
    }

    @Test
    void aDeliveryThatArrivesAloneDoesNotMakeItsLaneLinger() {
        lanes = new InboxLanes<>(16, Duration.ofSeconds(30), delivery -> delivery < 100, PATIENCE,
                recordingAnd(batch -> { }), handedBack::add);

        lanes.offer(0, 500L);
        await().atMost(PATIENCE).until(() -> !lanes.busy());

        assertThat(batches).containsExactly(List.of(500L));
    }

    @Test
    void stoppingEndsALinger() {
        lanes = new InboxLanes<>(16, Duration.ofSeconds(30), delivery -> true, PATIENCE, recordingAnd(batch -> { }),
                handedBack::add);
        lanes.offer(0, 1L);

        long start = System.nanoTime();
        lanes.stop();

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PATIENCE);
        assertThat(batches).as("a stopping lane takes no batch; the delivery goes back with its channel").isEmpty();
    }

    @Test
    void eachLaneHasOneBatchInFlightAndLanesGoSideBySide() {
        lanes = lanes(4, PATIENCE, recordingAnd(this::holdTheFirstBatch));

        lanes.offer(0, 1L);
        await().atMost(PATIENCE).until(() -> batches.size() == 1);
        lanes.offer(1, 101L);
        lanes.offer(0, 2L);

        await().atMost(PATIENCE).until(() -> batches.size() == 2);
        assertThat(batches).as("lane 1 does not wait for lane 0").containsExactly(List.of(1L), List.of(101L));
        release.countDown();
        await().atMost(PATIENCE).until(() -> batches.size() == 3);
        assertThat(batches.get(2)).containsExactly(2L);
    }

    @Test
    void aBatchThatFailsUnexpectedlyIsHandedBackWithWhatWaitsBehindItAndTheLaneGoesOn() {
        lanes = lanes(4, PATIENCE, recordingAnd(batch -> {
            holdTheFirstBatch(batch);
            if (batches.size() == 2) {
                throw new IllegalStateException("a bug in the batch path");
            }
        }));
        lanes.offer(0, 1L);
        await().atMost(PATIENCE).until(() -> batches.size() == 1);
        for (long delivery = 2; delivery <= 7; delivery++) {
            lanes.offer(0, delivery);
        }
        release.countDown();

        await().atMost(PATIENCE).until(() -> !lanes.busy());
        assertThat(batches).containsExactly(List.of(1L), List.of(2L, 3L, 4L, 5L));
        assertThat(handedBack).containsExactly(2L, 3L, 4L, 5L, 6L, 7L);

        lanes.offer(0, 8L);
        await().atMost(PATIENCE).until(() -> batches.size() == 3);
        assertThat(batches.get(2)).as("the next delivery starts a new drain").containsExactly(8L);
    }

    @Test
    void stoppingTakesNoFurtherDeliveryAndInterruptsABatchThatDoesNotEndInTime() {
        AtomicBoolean interrupted = new AtomicBoolean();
        lanes = lanes(4, Duration.ofMillis(200), recordingAnd(batch -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted.set(true);
                Thread.currentThread().interrupt();
            }
        }));
        lanes.offer(0, 1L);
        await().atMost(PATIENCE).until(() -> batches.size() == 1);
        lanes.offer(0, 2L);

        lanes.stop();
        assertThat(lanes.offer(0, 3L)).as("taken while stopping").isFalse();

        assertThat(interrupted).isTrue();
        assertThat(batches).containsExactly(List.of(1L));

        lanes.start();
        lanes.offer(0, 4L);
        await().atMost(PATIENCE).until(() -> batches.size() == 2);
        assertThat(batches.get(1)).as("what the stopped lane held went back with its channel").containsExactly(4L);
    }

    private InboxLanes<Long> lanes(int size, Duration stopTimeout, Consumer<List<Long>> batch) {
        return new InboxLanes<>(size, Duration.ZERO, delivery -> true, stopTimeout, batch, handedBack::add);
    }

    private Consumer<List<Long>> recordingAnd(Consumer<List<Long>> then) {
        return batch -> {
            batches.add(List.copyOf(batch));
            then.accept(batch);
        };
    }

    private void holdTheFirstBatch(List<Long> batch) {
        if (batches.size() == 1) {
            try {
                assertThat(release.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
