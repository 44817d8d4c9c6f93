package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.core.DatabaseClient;

import com.example.events.OrderEvent;
import com.example.testsupport.FreshInfrastructure;

import io.r2dbc.spi.ConnectionFactory;

/**
 * An idle relay that listens skips its polls (quiet-poll is an hour here), yet a row written without a notification
 * (as when another instance's batch rolls back) still leaves: the backlog figures see it and the polls resume.
 */
@SpringBootTest(properties = { "messaging.relay.poll-interval=200ms", "messaging.relay.stats-interval=1s",
        "messaging.relay.listener.quiet-poll=1h" })
@FreshInfrastructure
class RelayQuietPollIntegrationTests {

    @Autowired
    OutboxRelay relay;

    @Autowired
    ConnectionFactory connectionFactory;

    @Autowired
    AmqpAdmin admin;

    @Autowired
    RabbitTemplate rabbit;

    @Test
    void aRowNobodyWasToldAboutLeavesOnceTheFiguresSeeIt() {
        DatabaseClient db = DatabaseClient.create(connectionFactory);
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            // A cycle that found nothing and figures taken after it: the relay skips its polls.
            await().atMost(Duration.ofSeconds(10)).until(relay::isQuiet);

            db.sql("""
                    insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload)
                    values (gen_random_uuid(), 'order', '42', 'OrderCreated', 'order.events', '{}'::jsonb)""")
                    .fetch().rowsUpdated().block();

            List<Message> messages = await().atMost(Duration.ofSeconds(10)).until(probe::drain, m -> !m.isEmpty());
            assertThat(messages).hasSize(1);
            await().atMost(Duration.ofSeconds(5)).until(() -> db.sql("select count(*) from outbox_events "
                    + "where sent_at is null").map(row -> row.get(0, Long.class)).one().block() == 0);
        }
    }
}
