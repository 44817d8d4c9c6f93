package com.example.e2e.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.awaitility.Awaitility;

import com.example.events.testsupport.TestInfrastructure;

/**
 * A RabbitMQ node of the harness's own: its own node name, AMQP, distribution and management ports,
 * data and log directories, so killing it never touches the machine's broker. As root the server
 * drops to the {@code rabbitmq} user, so everything it writes belongs to that user. The management
 * plugin is on (the checker reads queue depths from it) and refreshes its statistics every second.
 */
final class RabbitNode implements BrokerNode {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Path dir;
    private final Path logDir;
    private final String nodeName = "e2e-" + UUID.randomUUID().toString().substring(0, 8) + "@localhost";
    private final int amqpPort = TestInfrastructure.freePort();
    private final int distPort = TestInfrastructure.freePort();
    private final int managementPort = TestInfrastructure.freePort();
    private final Leftovers leftovers;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private volatile long pid;

    private RabbitNode(Path dir, Path logDir, Leftovers leftovers) {
        this.dir = dir;
        this.logDir = logDir;
        this.leftovers = leftovers;
    }

    static RabbitNode start(Path logDir, Leftovers leftovers) {
        try {
            RabbitNode node = new RabbitNode(Files.createTempDirectory("e2e-rabbit-"), logDir, leftovers);
            node.configure();
            node.start();
            return node;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void configure() throws IOException {
        Files.createDirectories(dir.resolve("mnesia"));
        Files.createDirectories(logDir);
        Files.writeString(dir.resolve("rabbitmq.conf"), String.join("\n",
                "listeners.tcp.default = 127.0.0.1:" + amqpPort,
                "management.tcp.ip = 127.0.0.1",
                "management.tcp.port = " + managementPort,
                // Queue depths and unacked counts reach the management API within a second, not five.
                "collect_statistics_interval = 1000",
                "") );
        // Quorum queues report their depth on every tick, every 5 s by default: too stale to tell when
        // the system has gone quiet.
        Files.writeString(dir.resolve("advanced.config"), "[{rabbit, [{quorum_tick_interval, 500}]}].\n");
        Files.writeString(dir.resolve("enabled_plugins"), "[rabbitmq_management].\n");
        // An empty env file, so that /etc/rabbitmq/rabbitmq-env.conf (the machine's node name) is not read.
        Files.writeString(dir.resolve("rabbitmq-env.conf"), "");
        if (isRoot()) {
            run(List.of("chown", "-R", "rabbitmq:rabbitmq", dir.toString(), logDir.toString()));
        }
    }

    @Override
    public void start() {
        ProcessBuilder server = new ProcessBuilder("rabbitmq-server", "-detached").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logDir.resolve("rabbitmq-server.out").toFile()));
        Map<String, String> env = server.environment();
        env.put("RABBITMQ_CONF_ENV_FILE", dir.resolve("rabbitmq-env.conf").toString());
        env.put("RABBITMQ_NODENAME", nodeName);
        env.put("RABBITMQ_NODE_PORT", Integer.toString(amqpPort));
        env.put("RABBITMQ_DIST_PORT", Integer.toString(distPort));
        env.put("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString());
        env.put("RABBITMQ_LOG_BASE", logDir.toString());
        env.put("RABBITMQ_PID_FILE", dir.resolve("rabbitmq.pid").toString());
        env.put("RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString());
        env.put("RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq.conf").toString());
        env.put("RABBITMQ_ADVANCED_CONFIG_FILE", dir.resolve("advanced.config").toString());
        env.put("ERL_EPMD_ADDRESS", "127.0.0.1");
        try {
            Files.deleteIfExists(dir.resolve("rabbitmq.pid"));
            Process detached = server.start();
            if (!detached.waitFor(30, TimeUnit.SECONDS) || detached.exitValue() != 0) {
                throw new IllegalStateException("rabbitmq-server -detached failed; see " + logDir);
            }
        } catch (IOException e) {
            throw new IllegalStateException("rabbitmq-server is needed to run the e2e suite: apt-get install rabbitmq-server",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        // -detached returns before the node runs; the pid file and then the ports show it is up.
        Awaitility.await("RabbitMQ node " + nodeName + " up").atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(250))
                .until(() -> readPid() > 0 && answers(amqpPort) && managementAnswers());
        pid = readPid();
        leftovers.remember(pid, nodeName);
    }

    @Override
    public void kill() {
        Signals.killAndWait(pid, Duration.ofSeconds(30));
    }

    @Override
    public boolean isRunning() {
        return pid > 0 && Signals.isAlive(pid);
    }

    @Override
    public int amqpPort() {
        return amqpPort;
    }

    @Override
    public URI managementUri() {
        return URI.create("http://localhost:" + managementPort);
    }

    @Override
    public String user() {
        return "guest";
    }

    @Override
    public String password() {
        return "guest";
    }

    /** A throw-away node needs no clean shutdown: kill it and delete its data. */
    void close() {
        if (pid > 0) {
            Signals.killAndWait(pid, Duration.ofSeconds(30));
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind is harmless
        }
    }

    private long readPid() {
        try {
            return Long.parseLong(Files.readString(dir.resolve("rabbitmq.pid")).strip());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    private boolean managementAnswers() throws InterruptedException {
        String auth = Base64.getEncoder().encodeToString((user() + ":" + password()).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(managementUri().resolve("/api/overview"))
                .header("Authorization", "Basic " + auth).timeout(Duration.ofSeconds(2)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: "
                        + new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
