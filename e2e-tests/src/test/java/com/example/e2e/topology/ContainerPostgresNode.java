package com.example.e2e.topology;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;
import org.testcontainers.containers.Network;

import com.example.testsupport.TestInfrastructure;

/**
 * The harness's PostgreSQL server as a container (network alias {@code postgres}). A stop is {@code docker
 * kill} and a start is {@code docker start} of the same container: the data stays in the container's volume
 * and the server recovers from its WAL, as after a crash.
 */
final class ContainerPostgresNode implements DatabaseNode {

    static final String ALIAS = "postgres";
    static final int PORT = 5432;
    private static final String USER = "postgres";
    private static final String PASSWORD = "postgres";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private final DockerEngine docker;
    private final String containerId;
    private final int hostPort = TestInfrastructure.freePort();
    private final FileLog log;
    private volatile DockerEngine.Run run;

    private ContainerPostgresNode(DockerEngine docker, String image, String name, Network network, Path logDir) {
        this.docker = docker;
        this.log = new FileLog(logDir.resolve("postgres.log"));
        // fsync=off as in the processes driver: a killed server loses nothing the kernel has (the page cache
        // outlives the container); only a crash of the machine would. Six service instances with their pools
        // and the checker need more than the default 100 connections.
        this.containerId = docker.create(new DockerEngine.Spec(name, image, Map.of("POSTGRES_PASSWORD", PASSWORD), null,
                List.of(ALIAS), Map.of(PORT, hostPort), 0, List.of("postgres", "-c", "fsync=off", "-c",
                        "max_connections=200")), network);
    }

    static ContainerPostgresNode start(DockerEngine docker, String image, String name, Network network, Path logDir) {
        ContainerPostgresNode node = new ContainerPostgresNode(docker, image, name, network, logDir);
        node.start();
        return node;
    }

    @Override
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://localhost:" + hostPort + "/" + database;
    }

    @Override
    public String user() {
        return USER;
    }

    @Override
    public String password() {
        return PASSWORD;
    }

    @Override
    public void stopNow() {
        docker.kill(containerId);
        DockerEngine.Run current = run;
        if (current != null) {
            current.awaitEnd(Duration.ofSeconds(30), "postgres");
        }
    }

    @Override
    public void start() {
        if (isRunning()) {
            return;
        }
        log.note("start of postgres at " + Instant.now());
        run = docker.start(containerId, log.file());
        // Docker's port proxy accepts connections before the server does: only a login proves it is up. The
        // first start initialises the data directory on the socket alone, so this also waits for that.
        Awaitility.await("PostgreSQL container accepting connections on port " + hostPort + " (log: "
                + log.location() + ")").atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(250)).until(() -> {
                    if (run.ended()) {
                        throw new AssertionError("the PostgreSQL container exited with " + run.exitCode() + "; log: "
                                + log.location());
                    }
                    return acceptsLogin();
                });
    }

    @Override
    public boolean isRunning() {
        return docker.isRunning(containerId);
    }

    void close() {
        docker.remove(containerId);
        DockerEngine.Run current = run;
        if (current != null) {
            current.closeOutput();
        }
    }

    private boolean acceptsLogin() {
        try (Connection connection = DriverManager.getConnection(jdbcUrl("postgres") + "?connectTimeout=2", USER,
                PASSWORD)) {
            return connection.isValid(2);
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "postgres (localhost:" + hostPort + ", container " + containerId.substring(0, 12) + ")";
    }
}
