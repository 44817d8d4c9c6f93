package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.r2dbc.core.DatabaseClient;

import com.example.messaging.relay.RelayTestApplication;
import com.example.messaging.support.Janitor;
import com.example.testsupport.FreshInfrastructure;

/** Processed event ids are forgotten after the retention age, in small batches, and not before. */
@SpringBootTest(classes = RelayTestApplication.class, properties = { "messaging.inbox.retention.age=1d",
        "messaging.inbox.retention.batch-size=2", "messaging.inbox.retention.interval=1h" })
@FreshInfrastructure
class ProcessedEventsJanitorIntegrationTests {

    @Autowired
    @Qualifier("processedEventsJanitor")
    Janitor janitor;

    @Autowired
    DatabaseClient db;

    @Test
    void forgetsOnlyIdsOlderThanTheRetention() {
        for (int i = 0; i < 5; i++) {
            insert("2 days");
        }
        UUID recent = insert("23 hours");

        assertThat(janitor.deleteExpired().block()).isEqualTo(5);

        assertThat(db.sql("select event_id from processed_events").map(row -> row.get(0, UUID.class)).all()
                .collectList().block()).containsExactly(recent);
        assertThat(janitor.deleteExpired().block()).isZero();
    }

    private UUID insert(String age) {
        UUID id = UUID.randomUUID();
        db.sql("insert into processed_events (event_id, event_type, processed_at) values (:id, 'OrderCreated', now() - "
                + "interval '" + age + "')").bind("id", id).then().block();
        return id;
    }
}
