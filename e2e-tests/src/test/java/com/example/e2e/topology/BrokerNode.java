package com.example.e2e.topology;

import java.net.URI;

/** The RabbitMQ node every service uses: AMQP for the services, the management API for the checker. */
public interface BrokerNode {

    int amqpPort();

    /** Base URI of the management HTTP API, e.g. {@code http://localhost:15672}. */
    URI managementUri();

    String user();

    String password();

    /** SIGKILL of the broker: no clean shutdown, durable queues recover from disk on the next start. */
    void kill();

    /** Starts the node again on the same name, ports and data; returns when AMQP answers. */
    void start();

    boolean isRunning();

    /**
     * Raises or clears the node's memory alarm, as if it used more memory than its high watermark: while raised,
     * the broker blocks every connection that publishes (its consumers go on).
     */
    void memoryAlarm(boolean raised);

    /** Whether the node's memory alarm is in effect now, as the node itself reports it. */
    boolean memoryAlarmed();
}
