package com.example.e2e.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.NavigableSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import com.example.e2e.topology.BrokerNode;
import com.example.events.DomainEvent;
import com.example.events.EventHeaders;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * The broker ceiling: persistent messages of an OrderCreated's size and headers, published with confirms
 * by one channel that keeps up to {@link #WINDOW} unconfirmed, to a durable topic exchange bound to as many
 * durable quorum queues as order.events has (one per consumer service), with no consumer. The relay does
 * the same work per event, so the ratio of its drain rate to this one is the share of the broker it uses.
 */
final class BrokerCeiling {

    static final String EXCHANGE = "bench.ceiling";
    /** Unconfirmed messages in flight: enough that the broker, not the round trip, sets the pace. */
    static final int WINDOW = 1_000;
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    /** @param version the broker's version, as it tells a client */
    record Result(Throughput throughput, String version) {
    }

    private BrokerCeiling() {
    }

    static Result measure(BrokerNode broker, int messages, byte[] body, int fanOut) throws Exception {
        try (Connection connection = connect(broker, "bench-broker-ceiling")) {
            Channel channel = connection.createChannel();
            channel.exchangeDeclare(EXCHANGE, "topic", true);
            for (int i = 1; i <= fanOut; i++) {
                String queue = EXCHANGE + ".queue-" + i;
                channel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum"));
                channel.queueBind(queue, EXCHANGE, "#");
            }
            Publisher publisher = new Publisher(channel, body);
            publisher.publish(Math.min(messages, 2_000));
            long started = System.nanoTime();
            publisher.publish(messages);
            double seconds = (System.nanoTime() - started) / 1e9;
            for (int i = 1; i <= fanOut; i++) {
                channel.queueDelete(EXCHANGE + ".queue-" + i);
            }
            channel.exchangeDelete(EXCHANGE);
            return new Result(new Throughput(messages, seconds),
                    String.valueOf(connection.getServerProperties().get("version")));
        }
    }

    static Connection connect(BrokerNode broker, String name) throws IOException, TimeoutException {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("localhost");
        factory.setPort(broker.amqpPort());
        factory.setUsername(broker.user());
        factory.setPassword(broker.password());
        return factory.newConnection(name);
    }

    /** Publishes with a window of unconfirmed messages; every message must be confirmed (acked), none nacked. */
    private static final class Publisher {

        private final Channel channel;
        private final byte[] body;
        private final Semaphore window = new Semaphore(WINDOW);
        private final NavigableSet<Long> unconfirmed = new ConcurrentSkipListSet<>();
        private final AtomicInteger nacked = new AtomicInteger();

        Publisher(Channel channel, byte[] body) throws IOException {
            this.channel = channel;
            this.body = body;
            channel.confirmSelect();
            channel.addConfirmListener((tag, multiple) -> confirmed(tag, multiple),
                    (tag, multiple) -> nacked.addAndGet(confirmed(tag, multiple)));
        }

        private int confirmed(long tag, boolean multiple) {
            int count;
            if (multiple) {
                NavigableSet<Long> done = unconfirmed.headSet(tag, true);
                count = done.size();
                done.clear();
            } else {
                count = unconfirmed.remove(tag) ? 1 : 0;
            }
            window.release(count);
            return count;
        }

        void publish(int messages) throws IOException, InterruptedException, TimeoutException {
            for (int i = 0; i < messages; i++) {
                window.acquire();
                unconfirmed.add(channel.getNextPublishSeqNo());
                String id = UUID.randomUUID().toString();
                AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId(id)
                        .contentType("application/json").contentEncoding(StandardCharsets.UTF_8.name()).deliveryMode(2)
                        .headers(Map.of(EventHeaders.EVENT_TYPE, "OrderCreated", EventHeaders.AGGREGATE_TYPE, "order",
                                EventHeaders.AGGREGATE_ID, Integer.toString(i), EventHeaders.SCHEMA_VERSION,
                                DomainEvent.SCHEMA_VERSION, EventHeaders.OCCURRED_AT, Instant.now().toString()))
                        .build();
                channel.basicPublish(EXCHANGE, "OrderCreated", properties, body);
            }
            channel.waitForConfirmsOrDie(PATIENCE.toMillis());
            if (nacked.get() > 0) {
                throw new IllegalStateException("the broker refused " + nacked.get() + " messages");
            }
        }
    }
}
