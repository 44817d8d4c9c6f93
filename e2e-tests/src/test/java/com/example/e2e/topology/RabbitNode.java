package com.example.e2e.topology;

import java.net.URI;
import java.nio.file.Path;

import com.example.testsupport.ThrowawayRabbit;

/**
 * The harness's own RabbitMQ node (a {@link ThrowawayRabbit}: own node name, ports and data), with the
 * management plugin on, because the checker reads queue depths and unacknowledged counts from it, and
 * its logs beside the services' logs.
 */
final class RabbitNode implements BrokerNode {

    private final ThrowawayRabbit node;
    private final Leftovers leftovers;

    private RabbitNode(ThrowawayRabbit node, Leftovers leftovers) {
        this.node = node;
        this.leftovers = leftovers;
    }

    static RabbitNode start(Path logDir, Leftovers leftovers) {
        if (!ThrowawayRabbit.isAvailable()) {
            throw new IllegalStateException("the e2e suite runs its own RabbitMQ node: it needs rabbitmq-server "
                    + "(apt-get install rabbitmq-server) and root");
        }
        ThrowawayRabbit node = ThrowawayRabbit.create("e2e",
                ThrowawayRabbit.Options.defaults().withManagement().withLogDirectory(logDir));
        RabbitNode rabbit = new RabbitNode(node, leftovers);
        rabbit.rememberPid();
        return rabbit;
    }

    @Override
    public int amqpPort() {
        return node.port();
    }

    @Override
    public URI managementUri() {
        return node.managementUri();
    }

    @Override
    public String user() {
        return node.user();
    }

    @Override
    public String password() {
        return node.password();
    }

    @Override
    public void kill() {
        node.kill();
    }

    @Override
    public void start() {
        node.start();
        rememberPid();
    }

    @Override
    public boolean isRunning() {
        return node.isRunning();
    }

    @Override
    public void memoryAlarm(boolean raised) {
        node.memoryAlarm(raised);
    }

    @Override
    public boolean memoryAlarmed() {
        return node.memoryAlarmed();
    }

    void close() {
        node.close();
    }

    /** The running node's Erlang VM (beam.smp), the parent of its port programs. */
    long pid() {
        return node.pid();
    }

    private void rememberPid() {
        leftovers.remember(node.pid(), node.nodeName());
    }
}
