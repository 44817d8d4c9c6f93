package com.example.messaging.relay;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.event.AmqpEvent;
import org.springframework.amqp.rabbit.connection.Connection;
import org.springframework.amqp.rabbit.connection.ConnectionBlockedEvent;
import org.springframework.amqp.rabbit.connection.ConnectionUnblockedEvent;
import org.springframework.context.ApplicationListener;

/**
 * The broker's resource alarms (memory, disk) as this process sees them: RabbitMQ tells a client with
 * {@code connection.blocked} that it stopped reading what the connection publishes, and with
 * {@code connection.unblocked} that it reads again. Spring AMQP turns both into application events.
 *
 * <p>While a connection is blocked the relay does not publish: a publish would not fail, it would wait, its socket
 * writes blocking a relay thread once the buffers are full, and its confirms would time out. Like an unreachable
 * broker, a blocked one is an outage, not a refusal of any row.
 */
final class BrokerBlocks implements ApplicationListener<AmqpEvent> {

    private static final Logger log = LoggerFactory.getLogger(BrokerBlocks.class);

    private final Map<Connection, String> blocked = new ConcurrentHashMap<>();

    @Override
    public void onApplicationEvent(AmqpEvent event) {
        if (event instanceof ConnectionBlockedEvent block) {
            String reason = block.getReason() == null ? "no reason given" : block.getReason();
            if (blocked.put(block.getConnection(), reason) == null) {
                log.warn("The broker blocked connection {}: {}. Events wait in the outbox until it unblocks it",
                        block.getConnection(), reason);
            }
        } else if (event instanceof ConnectionUnblockedEvent unblock && blocked.remove(unblock.getConnection()) != null) {
            log.info("The broker unblocked connection {}", unblock.getConnection());
        }
    }

    /** Why the broker blocks one of this process's connections, if it does. */
    Optional<String> reason() {
        return blocked.values().stream().findFirst();
    }
}
