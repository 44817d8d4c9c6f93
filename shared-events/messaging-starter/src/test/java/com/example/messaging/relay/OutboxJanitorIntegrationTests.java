package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

import com.example.events.DomainEvent;
import com.example.messaging.outbox.OutboxWriter;
import com.example.messaging.support.Janitor;
import com.example.testsupport.FreshInfrastructure;

import io.r2dbc.spi.ConnectionFactory;

/** Retention deletes sent rows older than its age, in small batches, and nothing else. */
@SpringBootTest(properties = { "messaging.relay.retention.age=1d", "messaging.relay.retention.batch-size=2",
        "messaging.relay.retention.interval=1h" })
@FreshInfrastructure
class OutboxJanitorIntegrationTests {

    @Autowired
    @Qualifier("outboxJanitor")
    Janitor janitor;

    @Autowired
    OutboxRelay relay;

    @Autowired
    OutboxWriter writer;

    @Autowired
    ConnectionFactory connectionFactory;

    @Test
    void deletesOnlySentRowsOlderThanTheRetention() {
        // The rows get their ages by hand; a running relay would publish and stamp them first.
        relay.stop();
        TestOutbox outbox = new TestOutbox(writer,
                TransactionalOperator.create(new R2dbcTransactionManager(connectionFactory)),
                DatabaseClient.create(connectionFactory));
        List<String> sentLongAgo = new ArrayList<>();
        for (int order = 1; order <= 5; order++) {
            sentLongAgo.add(write(outbox, order));
        }
        String sentRecently = write(outbox, 6);
        String unsentOld = write(outbox, 7);
        String parkedOld = write(outbox, 8);
        outbox.execute("update outbox_events set created_at = now() - interval '3 days'");
        outbox.execute("update outbox_events set sent_at = now() - interval '2 days' where id in (" + quoted(sentLongAgo) + ")");
        outbox.execute("update outbox_events set sent_at = now() - interval '23 hours' where id = '" + sentRecently + "'");
        outbox.execute("update outbox_events set parked_at = now() - interval '2 days', attempts = 12 where id = '"
                + parkedOld + "'");

        assertThat(janitor.deleteExpired().block()).isEqualTo(5);

        assertThat(outbox.count("true")).isEqualTo(3);
        assertThat(outbox.count("id in (" + quoted(List.of(sentRecently, unsentOld, parkedOld)) + ")")).isEqualTo(3);
        assertThat(janitor.deleteExpired().block()).isZero();
    }

    private static String write(TestOutbox outbox, long order) {
        DomainEvent event = TestOutbox.created(order);
        outbox.write(event);
        return event.eventId().toString();
    }

    private static String quoted(List<String> ids) {
        return String.join(",", ids.stream().map(id -> "'" + id + "'").toList());
    }
}
