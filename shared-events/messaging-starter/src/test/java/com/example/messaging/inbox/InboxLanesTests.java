package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;

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
import org.springframework.amqp.support.AmqpHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

import com.rabbitmq.client.Channel;

/**
 * How batches form without waiting: the first delivery goes alone, what arrives while a batch is in flight makes up
 * the next ones (in delivery order, at most the size), one batch at a time per channel, channels side by side; and
 * how stopping leaves new deliveries alone and interrupts a batch that does not end in time.
 */
class InboxLanesTests {

    private static final Duration PATIENCE = Duration.ofSeconds(5);

    private final Channel channel = mock(Channel.class);
    private final Channel otherChannel = mock(Channel.class);
    private final List<List<Long>> batches = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch release = new CountDownLatch(1);
    private InboxLanes lanes;

    @AfterEach
    void stop() {
        release.countDown();
        if (lanes != null) {
            lanes.stop();
        }
    }

    @Test
    void whatArrivesWhileABatchIsInFlightMakesUpTheNextBatchesInDeliveryOrder() {
        lanes = new InboxLanes(4, PATIENCE, recordingAnd(this::holdTheFirstBatch));

        lanes.offer(delivery(channel, 1));
        await().atMost(PATIENCE).until(() -> batches.size() == 1);
        for (long tag = 2; tag <= 11; tag++) {
            lanes.offer(delivery(channel, tag));
        }
        release.countDown();

        await().atMost(PATIENCE).until(() -> !lanes.busy());
        assertThat(batches).containsExactly(List.of(1L), List.of(2L, 3L, 4L, 5L), List.of(6L, 7L, 8L, 9L),
                List.of(10L, 11L));
    }

    @Test
    void aDeliveryAfterAQuietSpellGoesAloneAndAtOnce() {
        lanes = new InboxLanes(16, PATIENCE, recordingAnd(batch -> { }));

        lanes.offer(delivery(channel, 1));
        await().atMost(PATIENCE).until(() -> !lanes.busy());
        lanes.offer(delivery(channel, 2));
        await().atMost(PATIENCE).until(() -> !lanes.busy());

        assertThat(batches).containsExactly(List.of(1L), List.of(2L));
    }

    @Test
    void eachChannelHasItsOwnLane() {
        lanes = new InboxLanes(4, PATIENCE, recordingAnd(this::holdTheFirstBatch));

        lanes.offer(delivery(channel, 1));
        await().atMost(PATIENCE).until(() -> batches.size() == 1);
        lanes.offer(delivery(otherChannel, 1));
        lanes.offer(delivery(channel, 2));

        await().atMost(PATIENCE).until(() -> batches.size() == 2);
        assertThat(batches).containsExactly(List.of(1L), List.of(1L));
        release.countDown();
        await().atMost(PATIENCE).until(() -> batches.size() == 3);
        assertThat(batches.get(2)).containsExactly(2L);
    }

    @Test
    void aBatchThatFailsUnexpectedlyGoesBackToTheQueueWithWhatWaitsBehindItAndTheLaneGoesOn() throws Exception {
        lanes = new InboxLanes(4, PATIENCE, recordingAnd(batch -> {
            holdTheFirstBatch(batch);
            if (batches.size() == 2) {
                throw new IllegalStateException("a bug in the batch path");
            }
        }));
        lanes.offer(delivery(channel, 1));
        await().atMost(PATIENCE).until(() -> batches.size() == 1);
        for (long tag = 2; tag <= 7; tag++) {
            lanes.offer(delivery(channel, tag));
        }
        release.countDown();

        await().atMost(PATIENCE).until(() -> !lanes.busy());
        assertThat(batches).containsExactly(List.of(1L), List.of(2L, 3L, 4L, 5L));
        verify(channel).basicNack(7L, true, true);

        lanes.offer(delivery(channel, 8));
        await().atMost(PATIENCE).until(() -> batches.size() == 3);
        assertThat(batches.get(2)).as("the next delivery starts a new drain").containsExactly(8L);
    }

    @Test
    void stoppingTakesNoFurtherDeliveryAndInterruptsABatchThatDoesNotEndInTime() throws InterruptedException {
        AtomicBoolean interrupted = new AtomicBoolean();
        lanes = new InboxLanes(4, Duration.ofMillis(200), recordingAnd(batch -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted.set(true);
                Thread.currentThread().interrupt();
            }
        }));
        lanes.offer(delivery(channel, 1));
        await().atMost(PATIENCE).until(() -> batches.size() == 1);
        lanes.offer(delivery(channel, 2));

        lanes.stop();
        lanes.offer(delivery(channel, 3));

        assertThat(interrupted).isTrue();
        assertThat(batches).containsExactly(List.of(1L));

        lanes.start();
        lanes.offer(delivery(channel, 4));
        await().atMost(PATIENCE).until(() -> batches.size() == 2);
        assertThat(batches.get(1)).as("what the stopped lane held went back with its channel").containsExactly(4L);
    }

    private Consumer<List<Message<byte[]>>> recordingAnd(Consumer<List<Message<byte[]>>> then) {
        return batch -> {
            batches.add(batch.stream().map(m -> m.getHeaders().get(AmqpHeaders.DELIVERY_TAG, Long.class)).toList());
            then.accept(batch);
        };
    }

    private void holdTheFirstBatch(List<Message<byte[]>> batch) {
        if (batches.size() == 1) {
            try {
                assertThat(release.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Message<byte[]> delivery(Channel channel, long tag) {
        return MessageBuilder.withPayload(new byte[0])
                .setHeader(AmqpHeaders.CHANNEL, channel)
                .setHeader(AmqpHeaders.DELIVERY_TAG, tag)
                .build();
    }
}
