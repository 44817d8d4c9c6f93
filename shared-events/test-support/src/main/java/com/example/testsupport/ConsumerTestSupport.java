package com.example.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

import com.example.events.DomainEvent;
import com.example.events.EventJson;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Base of in-process tests of a service that consumes events: the service's database, a broker
 * client on the test's vhost, and waits for the replies the service writes to its outbox. Extend it
 * with {@code @SpringBootTest} and {@link FreshInfrastructure}.
 */
public abstract class ConsumerTestSupport {

    protected static final Duration PATIENCE = Duration.ofSeconds(30);

    @Value("${test.rabbitmq.virtual-host}")
    String vhost;

    @Value("${test.database.jdbc-url}")
    String jdbcUrl;

    @Value("${spring.flyway.user}")
    String user;

    @Value("${spring.flyway.password:}")
    String password;

    @Autowired
    protected MeterRegistry meters;

    /** The service's own database. */
    protected ServiceDatabase database;

    protected BrokerClient broker;

    @BeforeEach
    void connect() {
        database = new ServiceDatabase(jdbcUrl, user, password);
        broker = BrokerClient.forVhost(vhost);
        broker.bindSink(replyExchange());
    }

    /** The exchange the service's replies go to, e.g. {@code inventory.events}; the service declares it. */
    protected abstract String replyExchange();

    @AfterEach
    void disconnect() {
        broker.close();
    }

    /** Waits until the service has written this many replies for the order, and returns their types. */
    protected List<String> awaitReplies(long orderId, int count) {
        return await().atMost(PATIENCE).until(() -> database.replies(orderId), replies -> replies.size() >= count);
    }

    /** The order's only reply of that type, read back as the event record. */
    protected <E extends DomainEvent> E reply(long orderId, Class<E> type) {
        return EventJson.read(database.reply(orderId, type.getSimpleName()), type);
    }

    /** Nothing waits in the queue and nothing is left unacknowledged (management stats lag a few seconds). */
    protected void awaitQueueDrained(String queue) {
        await().atMost(PATIENCE).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(broker.stats(queue)).isEqualTo(new BrokerClient.QueueStats(0, 0)));
    }

    /** The sum of a counter over its tags, optionally for one event type. */
    protected double counter(String name, String eventType) {
        return meters.find(name).counters().stream()
                .filter(counter -> eventType == null || eventType.equals(counter.getId().getTag("event_type")))
                .mapToDouble(Counter::count).sum();
    }
}
