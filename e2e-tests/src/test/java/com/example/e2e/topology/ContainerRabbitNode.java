package com.example.e2e.topology;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;
import org.testcontainers.containers.Network;

import com.example.testsupport.TestInfrastructure;
import com.example.testsupport.ThrowawayRabbit;

/**
 * The harness's RabbitMQ node as a container (network alias and host name {@code rabbitmq}), with the
 * management API the checker reads. A kill is {@code docker kill}, a start is {@code docker start} of the same
 * container: the node name follows the host name, which stays fixed, so the node finds its data again and
 * durable queues recover from disk.
 */
final class ContainerRabbitNode implements BrokerNode {

    static final String ALIAS = "rabbitmq";
    static final int AMQP_PORT = 5672;
    private static final int MANAGEMENT_PORT = 15672;
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    /** The protocol header of AMQP 0-9-1; a broker answers it with its Connection.Start method frame (type 1). */
    private static final byte[] AMQP_HEADER = {'A', 'M', 'Q', 'P', 0, 0, 9, 1};

    private final DockerEngine docker;
    private final String containerId;
    private final int amqpPort = TestInfrastructure.freePort();
    private final int managementPort = TestInfrastructure.freePort();
    private final FileLog log;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1)).build();
    private volatile DockerEngine.Run run;

    private ContainerRabbitNode(DockerEngine docker, String image, String name, Network network, Path logDir) {
        this.docker = docker;
        this.log = new FileLog(logDir.resolve("rabbitmq.log"));
        // As in the processes driver: statistics every second rather than every five, and quorum queue depths
        // twice a second, so that the checker sees a queue empty (or not) soon. Set through the Erlang
        // command line, which every RabbitMQ image honours, rather than a config file the image may rewrite.
        Map<String, String> environment = Map.of("RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS",
                "-rabbit collect_statistics_interval 1000 -rabbit quorum_tick_interval 500");
        this.containerId = docker.create(new DockerEngine.Spec(name, image, environment, ALIAS, List.of(ALIAS),
                Map.of(AMQP_PORT, amqpPort, MANAGEMENT_PORT, managementPort), 0, List.of()), network);
    }

    static ContainerRabbitNode start(DockerEngine docker, String image, String name, Network network, Path logDir) {
        ContainerRabbitNode node = new ContainerRabbitNode(docker, image, name, network, logDir);
        node.start();
        return node;
    }

    @Override
    public int amqpPort() {
        return amqpPort;
    }

    @Override
    public URI managementUri() {
        return URI.create("http://localhost:" + managementPort);
    }

    /** The built-in account; the image lets it in from other hosts than localhost. */
    @Override
    public String user() {
        return "guest";
    }

    @Override
    public String password() {
        return "guest";
    }

    @Override
    public void kill() {
        docker.kill(containerId);
        DockerEngine.Run current = run;
        if (current != null) {
            current.awaitEnd(Duration.ofSeconds(30), "rabbitmq");
        }
    }

    @Override
    public void start() {
        if (isRunning()) {
            return;
        }
        log.note("start of rabbitmq at " + Instant.now());
        run = docker.start(containerId, log.file());
        // Docker's port proxy accepts connections before the node does: only an AMQP answer proves it is up,
        // and the checker needs the management API as well.
        Awaitility.await("RabbitMQ container answering AMQP on port " + amqpPort + " and management on port "
                + managementPort + " (log: " + log.location() + ")").atMost(START_TIMEOUT)
                .pollInterval(Duration.ofMillis(250)).until(() -> {
                    if (run.ended()) {
                        throw new AssertionError("the RabbitMQ container exited with " + run.exitCode() + "; log: "
                                + log.location());
                    }
                    return answersAmqp() && answersManagement();
                });
    }

    @Override
    public boolean isRunning() {
        return docker.isRunning(containerId);
    }

    @Override
    public void memoryAlarm(boolean raised) {
        docker.exec(containerId, List.of("rabbitmqctl", "eval", ThrowawayRabbit.memoryAlarmCall(raised)));
    }

    @Override
    public boolean memoryAlarmed() {
        return ThrowawayRabbit.listsMemoryAlarm(
                docker.exec(containerId, List.of("rabbitmqctl", "eval", ThrowawayRabbit.MEMORY_ALARMS_CALL)));
    }

    void close() {
        docker.remove(containerId);
        DockerEngine.Run current = run;
        if (current != null) {
            current.closeOutput();
        }
    }

    private boolean answersAmqp() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", amqpPort), 1000);
            socket.setSoTimeout(2000);
            socket.getOutputStream().write(AMQP_HEADER);
            InputStream in = socket.getInputStream();
            return in.read() == 1;
        } catch (IOException e) {
            return false;
        }
    }

    private boolean answersManagement() {
        String credentials = Base64.getEncoder().encodeToString((user() + ":" + password())
                .getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(managementUri().resolve("/api/overview"))
                .header("Authorization", "Basic " + credentials).timeout(Duration.ofSeconds(2)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public String toString() {
        return "rabbitmq (amqp localhost:" + amqpPort + ", management " + managementUri() + ", container "
                + containerId.substring(0, 12) + ")";
    }
}
