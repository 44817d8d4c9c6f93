package com.example.messaging.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import com.example.events.DomainEvent;
import com.example.events.EventJson;
import com.example.events.OrderEvent;
import com.example.service.database.RestedConnectionValidation;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.StallingProxy;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ValidationDepth;

/**
 * Database connections that stop answering without closing (a network partition, a half-dead
 * connection) must not stall the relay for good: with the pool configured as the services configure
 * it, a frozen connection that rested or was slow on its last use fails validation and is dropped, and a cycle stuck on one is
 * abandoned after {@code cycle-timeout}; the relay goes on with fresh connections. It reaches the
 * database through a proxy that freezes every connection open at a given moment.
 */
@SpringBootTest(properties = { "messaging.relay.poll-interval=200ms", "messaging.relay.confirm-timeout=1s",
        "messaging.relay.cycle-timeout=3s", "messaging.relay.listener.enabled=false" })
@FreshInfrastructure
class RelayStallIntegrationTests {

    private static StallingProxy proxy;

    @Autowired
    AmqpAdmin admin;

    @Autowired
    RabbitTemplate rabbit;

    @Value("${test.database.jdbc-url}")
    String jdbcUrl;

    @Value("${test.database.user}")
    String user;

    @Value("${test.database.password}")
    String password;

    @TestConfiguration
    static class ThroughTheProxy {

        /** The application's pool as the services configure it, reaching PostgreSQL through the proxy. */
        @Bean
        ConnectionFactory connectionFactory(@Value("${test.database.jdbc-url}") String jdbcUrl,
                @Value("${test.database.name}") String database, @Value("${test.database.user}") String user,
                @Value("${test.database.password}") String password) {
            URI target = URI.create(jdbcUrl.substring("jdbc:".length()));
            proxy = new StallingProxy(target.getHost(), target.getPort());
            PostgresqlConnectionFactory postgres = new PostgresqlConnectionFactory(PostgresqlConnectionConfiguration
                    .builder().host("localhost").port(proxy.port()).username(user).password(password).database(database)
                    .build());
            // The services' defaults: the pool checks locally, a round trip only for a rested or slow connection.
            ConnectionFactory validated = new RestedConnectionValidation(Duration.ofMillis(500), Duration.ofSeconds(2))
                    .decorate(postgres);
            return new ConnectionPool(ConnectionPoolConfiguration.builder(validated).initialSize(2).maxSize(6)
                    .maxAcquireTime(Duration.ofSeconds(5)).maxCreateConnectionTime(Duration.ofSeconds(5))
                    .validationDepth(ValidationDepth.LOCAL).build());
        }
    }

    @AfterAll
    static void closeProxy() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aConnectionThatStopsAnsweringDoesNotStallTheRelay() throws SQLException {
        try (QueueProbe probe = QueueProbe.bind(admin, rabbit, OrderEvent.EXCHANGE, "#")) {
            DomainEvent before = TestOutbox.created(1);
            insert(before);
            await().atMost(Duration.ofSeconds(20)).until(() -> probe.messageIds().contains(before.eventId().toString()));

            proxy.stallExisting();
            DomainEvent after = TestOutbox.created(2);
            insert(after);

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> probe.messageIds().contains(after.eventId().toString()));
            assertThat(proxy.connectionsOpened()).as("the relay moved on to a new connection").isGreaterThan(2);
        }
    }

    /** Written straight to the database, not through the proxy: only the relay's connections freeze. */
    private void insert(DomainEvent event) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
                PreparedStatement insert = connection.prepareStatement("""
                        insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload)
                        values (?, ?, ?, ?, ?, ?::jsonb)""")) {
            insert.setObject(1, event.eventId());
            insert.setString(2, event.aggregateType());
            insert.setString(3, event.aggregateId());
            insert.setString(4, event.eventType());
            insert.setString(5, event.exchange());
            insert.setString(6, EventJson.write(event));
            insert.executeUpdate();
        }
    }
}
