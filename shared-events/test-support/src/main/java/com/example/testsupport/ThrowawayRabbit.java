package com.example.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A RabbitMQ node of a test's own, for tests that take the broker away: never the machine's shared
 * one. It runs the installed {@code rabbitmq-server} with its own node name, ports, data and log
 * directories (owned by the {@code rabbitmq} user, which the server switches to), no plugins and
 * its own configuration file (the system's one pins the listener to 5672). {@link #kill()} is
 * {@code kill -9}; {@link #start()} again reuses the data directory, so durable queues and
 * persistent messages survive as they would on a real crash. Every node is killed when the JVM exits.
 *
 * <p>Needs root (to hand the directory to the {@code rabbitmq} user) and the Debian package's
 * {@code rabbitmq-server}; {@link #isAvailable()} tells a test whether to run.
 *
 * <p>{@link Options} add what a harness that watches the node needs: the management API (queue
 * depths and unacknowledged counts, refreshed every second, quorum queues included) and a log
 * directory that outlives the node.
 */
public final class ThrowawayRabbit implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ThrowawayRabbit.class);
    private static final Path SERVER = Path.of("/usr/sbin/rabbitmq-server");
    private static final Path CTL = Path.of("/usr/sbin/rabbitmqctl");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Set<ThrowawayRabbit> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(ThrowawayRabbit::close),
                "throwaway-rabbit-cleanup"));
    }

    private final Path dir;
    private final String nodeName;
    private final int port;
    private final int distributionPort;
    private final int managementPort;
    private final Path logDirectory;

    private ThrowawayRabbit(Path dir, String nodeName, int port, int distributionPort, int managementPort,
            Path logDirectory) {
        this.dir = dir;
        this.nodeName = nodeName;
        this.port = port;
        this.distributionPort = distributionPort;
        this.managementPort = managementPort;
        this.logDirectory = logDirectory;
    }

    /**
     * What a node has besides AMQP.
     *
     * @param management   the management plugin on a free port of its own (see {@link #managementUri()})
     * @param logDirectory where the node writes its logs (kept after {@link #close()}); null for its temp dir
     */
    public record Options(boolean management, Path logDirectory) {

        public static Options defaults() {
            return new Options(false, null);
        }

        public Options withManagement() {
            return new Options(true, logDirectory);
        }

        public Options withLogDirectory(Path directory) {
            return new Options(management, directory);
        }
    }

    /** Whether this machine can run a throw-away node (a RabbitMQ installation, and root to set it up). */
    public static boolean isAvailable() {
        return Files.isExecutable(SERVER) && "root".equals(System.getProperty("user.name"));
    }

    /**
     * Creates a node named {@code <prefix>-<random>@localhost} on free ports and starts it.
     */
    public static ThrowawayRabbit create(String prefix) {
        return create(prefix, Options.defaults());
    }

    /** Creates a node with the given options on free ports and starts it. */
    public static ThrowawayRabbit create(String prefix, Options options) {
        try {
            Path dir = Files.createTempDirectory("throwaway-rabbit-");
            Path logDirectory = options.logDirectory() == null ? dir.resolve("log") : options.logDirectory();
            Files.createDirectories(dir.resolve("mnesia"));
            Files.createDirectories(logDirectory);
            Files.writeString(dir.resolve("enabled_plugins"), options.management() ? "[rabbitmq_management].\n" : "[].\n");
            int port = TestInfrastructure.freePort();
            int distributionPort = TestInfrastructure.freePort();
            int managementPort = options.management() ? TestInfrastructure.freePort() : 0;
            // The limit compose and ./stack give the broker (docker/rabbitmq/20-limits.conf).
            String config = "listeners.tcp.default = " + port + "\nmax_message_size = 1048576\n";
            if (options.management()) {
                // Statistics every second rather than every five, so that a watcher sees a queue empty soon.
                config += "management.tcp.ip = 127.0.0.1\nmanagement.tcp.port = " + managementPort + "\n"
                        + "collect_statistics_interval = 1000\n";
            }
            Files.writeString(dir.resolve("rabbitmq.conf"), config);
            // Quorum queues report their depth on every tick (5 s by default); twice a second instead.
            Files.writeString(dir.resolve("advanced.config"), "[{rabbit, [{quorum_tick_interval, 500}]}].\n");
            // An empty environment file keeps /etc/rabbitmq/rabbitmq-env.conf (NODENAME=rabbit@...) out.
            Files.writeString(dir.resolve("rabbitmq-env.conf"), "");
            run(List.of("chmod", "755", dir.toString()));
            run(List.of("chown", "-R", "rabbitmq:rabbitmq", dir.toString(), logDirectory.toString()));
            ThrowawayRabbit rabbit = new ThrowawayRabbit(dir,
                    prefix + "-" + UUID.randomUUID().toString().substring(0, 8) + "@localhost", port, distributionPort,
                    managementPort, logDirectory);
            LIVE.add(rabbit);
            rabbit.start();
            return rabbit;
        } catch (IOException e) {
            throw new UncheckedIOException("could not prepare a throw-away RabbitMQ node", e);
        }
    }

    public String host() {
        return "localhost";
    }

    public int port() {
        return port;
    }

    /** The built-in account, which RabbitMQ accepts from localhost. */
    public String user() {
        return "guest";
    }

    public String password() {
        return "guest";
    }

    public boolean isRunning() {
        return answers();
    }

    /** The node name, e.g. {@code relay-it-1a2b3c4d@localhost}; the node's environment carries it. */
    public String nodeName() {
        return nodeName;
    }

    /** The management HTTP API, for a node created {@link Options#withManagement() with management}. */
    public URI managementUri() {
        if (managementPort == 0) {
            throw new IllegalStateException(nodeName + " runs without the management plugin");
        }
        return URI.create("http://localhost:" + managementPort);
    }

    /** Starts the node (again) on its data directory and waits until it accepts AMQP connections. */
    public void start() {
        if (answers()) {
            return;
        }
        ProcessBuilder builder = new ProcessBuilder(SERVER.toString(), "-detached")
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("start.log").toFile()));
        Map<String, String> env = builder.environment();
        env.put("RABBITMQ_NODENAME", nodeName);
        env.put("RABBITMQ_NODE_PORT", Integer.toString(port));
        env.put("RABBITMQ_DIST_PORT", Integer.toString(distributionPort));
        env.put("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString());
        env.put("RABBITMQ_LOG_BASE", logDirectory.toString());
        env.put("RABBITMQ_PID_FILE", pidFile().toString());
        env.put("RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString());
        env.put("RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq.conf").toString());
        env.put("RABBITMQ_ADVANCED_CONFIG_FILE", dir.resolve("advanced.config").toString());
        env.put("RABBITMQ_CONF_ENV_FILE", dir.resolve("rabbitmq-env.conf").toString());
        try {
            Process starter = builder.start();
            // -detached returns before the node is up.
            if (!starter.waitFor(30, TimeUnit.SECONDS) || starter.exitValue() != 0) {
                throw new IllegalStateException("rabbitmq-server -detached failed; see " + dir.resolve("start.log"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + SERVER, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Awaitility.await("RabbitMQ node " + nodeName + " listening on port " + port + " (logs in "
                + logDirectory + ")").atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(200))
                .until(() -> answers() && (managementPort == 0 || answers(managementPort)));
        log.info("Throw-away RabbitMQ node {} listening on port {} (data in {})", nodeName, port, dir);
    }

    /** {@code kill -9} of the node: no clean shutdown, unconfirmed work is lost as in a real crash. */
    public void kill() {
        ProcessHandle.of(pid()).ifPresent(node -> {
            node.destroyForcibly();
            node.onExit().orTimeout(30, TimeUnit.SECONDS).join();
        });
        Awaitility.await("RabbitMQ node " + nodeName + " gone").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100)).until(() -> !answers());
        try {
            // A stale pid could name some other process by the time anyone reads it again.
            Files.deleteIfExists(pidFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        log.info("Throw-away RabbitMQ node {} killed", nodeName);
    }

    /**
     * Raises or clears the node's memory alarm, as if it had used more memory than its high watermark: while it is
     * raised the broker blocks every connection that publishes (consumers go on). The alarm is set directly rather
     * than by lowering the watermark, so it is on the moment this returns and off the moment it is cleared.
     */
    public void memoryAlarm(boolean raised) {
        run(List.of(CTL.toString(), "-n", nodeName, "eval", memoryAlarmCall(raised)));
        log.info("Throw-away RabbitMQ node {}: memory alarm {}", nodeName, raised ? "raised" : "cleared");
    }

    /** Whether the node's memory alarm is in effect now, as the node itself says ({@code rabbit_alarm:get_alarms()}). */
    public boolean memoryAlarmed() {
        return listsMemoryAlarm(run(List.of(CTL.toString(), "-n", nodeName, "eval", MEMORY_ALARMS_CALL)));
    }

    /** The Erlang expression ({@code rabbitmqctl eval}) that lists the alarms in effect on its node. */
    public static final String MEMORY_ALARMS_CALL = "rabbit_alarm:get_alarms().";

    /** Whether the output of {@link #MEMORY_ALARMS_CALL} lists a memory alarm. */
    public static boolean listsMemoryAlarm(String output) {
        return output.replaceAll("\\s", "").contains("{resource_limit,memory,");
    }

    /** The Erlang expression ({@code rabbitmqctl eval}) that raises or clears the memory alarm of its node. */
    public static String memoryAlarmCall(boolean raised) {
        return raised ? "rabbit_alarm:set_alarm({{resource_limit, memory, node()}, []})."
                : "rabbit_alarm:clear_alarm({resource_limit, memory, node()}).";
    }

    /** Kills the node and deletes its directory. */
    @Override
    public void close() {
        if (!LIVE.remove(this)) {
            return;
        }
        if (Files.exists(pidFile())) {
            kill();
        }
        try {
            run(List.of("rm", "-rf", dir.toString()));
        } catch (RuntimeException e) {
            log.debug("could not delete {}", dir, e);
        }
    }

    /** The operating-system process of the running node. */
    public long pid() {
        try {
            return Long.parseLong(Files.readString(pidFile()).strip());
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("no pid for RabbitMQ node " + nodeName + " in " + pidFile(), e);
        }
    }

    private Path pidFile() {
        return dir.resolve("rabbitmq.pid");
    }

    private boolean answers() {
        return answers(port);
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (process.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return nodeName + " on port " + port;
    }
}
