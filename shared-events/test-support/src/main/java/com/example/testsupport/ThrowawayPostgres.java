package com.example.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.example.service.database.DatabaseCreator;

/**
 * A PostgreSQL server of the test's own (initdb into a temp dir, a free port), so a test can stop it
 * and start it again without touching the machine's shared server. PostgreSQL refuses to run as
 * root, so as root the server runs as the {@code postgres} user. The server is stopped when the JVM exits.
 */
public final class ThrowawayPostgres implements AutoCloseable {

    private final Path dir;
    private final Path bin;
    private final int port;
    private final boolean asPostgresUser;
    private final boolean durable;
    private final List<String> settings;

    private ThrowawayPostgres(Path dir, Path bin, int port, boolean asPostgresUser, boolean durable,
            List<String> settings) {
        this.dir = dir;
        this.bin = bin;
        this.port = port;
        this.asPostgresUser = asPostgresUser;
        this.durable = durable;
        this.settings = settings;
    }

    /** Creates and starts a new server that skips fsync: tests want speed, and a crash of the machine loses nothing of theirs. */
    public static ThrowawayPostgres start() {
        return start(false);
    }

    /**
     * Creates and starts a new server.
     *
     * @param durable  whether commits are flushed to disk as in production (fsync on), as benchmarks need
     * @param settings further server settings, each {@code name=value} (e.g. {@code track_commit_timestamp=on})
     */
    public static ThrowawayPostgres start(boolean durable, String... settings) {
        Path bin = findBinaries();
        boolean asPostgresUser = "root".equals(System.getProperty("user.name"));
        try {
            Path dir = Files.createTempDirectory("throwaway-pg-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
            ThrowawayPostgres postgres = new ThrowawayPostgres(dir, bin, TestInfrastructure.freePort(), asPostgresUser,
                    durable, List.of(settings));
            if (asPostgresUser) {
                postgres.run(List.of("chown", "postgres:postgres", dir.toString()), false);
            }
            postgres.run(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-A", "trust",
                    "-U", "postgres", "--no-sync"), true);
            Runtime.getRuntime().addShutdownHook(new Thread(postgres::close, "throwaway-postgres-stop"));
            postgres.startServer();
            return postgres;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public TestInfrastructure.Postgres server() {
        return new TestInfrastructure.Postgres("localhost", port, "postgres", "");
    }

    public int port() {
        return port;
    }

    /**
     * Creates a database on this server unless it exists: a service does not create its own (outside a developer's
     * machine its role may not), so whoever starts one on an empty server provides the database first.
     */
    public void createDatabase(String name) {
        TestInfrastructure.Postgres server = server();
        DatabaseCreator.ensureExists(server.jdbcUrl(name), server.user(), server.password());
    }

    /** The temp dir holding {@code data/} and the server's log ({@code server.log}); deleted by {@link #close()}. */
    public Path directory() {
        return dir;
    }

    /** Starts the server again on the same port and data directory after {@link #stopNow()}. */
    public void startServer() {
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l",
                dir.resolve("server.log").toString(), "-w", "-t", "60", "-o",
                "-p " + port + " -k " + dir + " -c fsync=" + (durable ? "on" : "off") + " -c max_connections=200"
                        + settings.stream().map(setting -> " -c " + setting).collect(Collectors.joining()), "start"),
                true);
    }

    /** Immediate shutdown: like a crash, open connections are cut and nothing is flushed politely. */
    public void stopNow() {
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate", "-w",
                "stop"), true);
    }

    @Override
    public void close() {
        if (Files.exists(dir.resolve("data/postmaster.pid"))) {
            try {
                stopNow();
            } catch (RuntimeException ignored) {
                // already stopped
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind is harmless
        }
    }

    private void run(List<String> command, boolean asServerUser) {
        List<String> full = new ArrayList<>();
        if (asServerUser && asPostgresUser) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        try {
            Process process = new ProcessBuilder(full).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("commands.log").toFile())).start();
            if (!process.waitFor(90, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("'" + String.join(" ", command) + "' failed; see "
                        + dir.resolve("commands.log") + ": " + tail());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("commands.log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    private static Path findBinaries() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(version -> version.resolve("bin")).filter(bin -> Files.isExecutable(bin.resolve("pg_ctl")))
                    .max(Comparator.comparing(path -> Integer.parseInt(path.getParent().getFileName().toString())))
                    .orElseThrow();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("PostgreSQL server binaries (initdb, pg_ctl) are needed under "
                    + "/usr/lib/postgresql/<version>/bin: apt-get install postgresql", e);
        }
    }
}
