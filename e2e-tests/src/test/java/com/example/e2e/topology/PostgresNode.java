package com.example.e2e.topology;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import com.example.testsupport.ThrowawayPostgres;

/** The harness's own PostgreSQL server (initdb into a temp dir, a free port), never the machine's. */
final class PostgresNode implements DatabaseNode {

    private final ThrowawayPostgres server;
    private final Path logCopy;
    private final Leftovers leftovers;
    private volatile boolean running = true;

    private PostgresNode(ThrowawayPostgres server, Path logCopy, Leftovers leftovers) {
        this.server = server;
        this.logCopy = logCopy;
        this.leftovers = leftovers;
    }

    /**
     * @param durable for benchmarks: fsync on, as in production, rather than off (fault tests), and commit timestamps
     *                recorded, so that a benchmark can tell when a row's transaction committed
     *                ({@code pg_xact_commit_timestamp(xmin)}), not only when it began; and {@code pg_stat_statements}
     *                loaded with planning tracked, so that it can tell what each statement took
     */
    static PostgresNode start(Path logDir, Leftovers leftovers, boolean durable) {
        ThrowawayPostgres server = durable
                ? ThrowawayPostgres.start(true, "track_commit_timestamp=on",
                        "shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track_planning=on")
                : ThrowawayPostgres.start(false);
        PostgresNode node = new PostgresNode(server, logDir.resolve("postgres.log"), leftovers);
        node.rememberPid();
        return node;
    }

    @Override
    public String jdbcUrl(String database) {
        return server.server().jdbcUrl(database);
    }

    @Override
    public String user() {
        return server.server().user();
    }

    @Override
    public String password() {
        return server.server().password();
    }

    int port() {
        return server.port();
    }

    @Override
    public void stopNow() {
        server.stopNow();
        running = false;
    }

    @Override
    public void start() {
        server.startServer();
        running = true;
        rememberPid();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Stops the server and keeps its log beside the services' logs (the temp dir is deleted). */
    void close() {
        copyLog();
        server.close();
    }

    private void copyLog() {
        Path log = server.directory().resolve("server.log");
        try {
            if (Files.exists(log)) {
                Files.copy(log, logCopy, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException ignored) {
            // the log is a convenience; the run's verdicts do not depend on it
        }
    }

    /** The running server's postmaster, the parent of its backends and helper processes. */
    long pid() {
        Path pidFile = server.directory().resolve("data/postmaster.pid");
        try {
            return Long.parseLong(Files.readAllLines(pidFile).get(0).strip());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("no postmaster pid in " + pidFile, e);
        }
    }

    private void rememberPid() {
        try {
            leftovers.remember(pid(), server.directory().toString());
        } catch (IllegalStateException ignored) {
            // without a pid the shutdown hook of ThrowawayPostgres is the only cleanup
        }
    }
}
