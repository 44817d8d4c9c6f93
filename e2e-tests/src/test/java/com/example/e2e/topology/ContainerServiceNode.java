package com.example.e2e.topology;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.awaitility.Awaitility;
import org.testcontainers.containers.Network;

import com.example.testsupport.TestInfrastructure;
import com.example.testsupport.TestTokens;

/**
 * A service instance as a container of the service's image. A container's environment is fixed when it is
 * created, and crash points are armed through the environment, so every start creates a fresh container
 * (services keep no state of their own); its host port stays the same, so clients keep their URL.
 */
final class ContainerServiceNode implements ServiceNode {

    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(30);

    private final String name;
    private final Service service;
    private final String image;
    private final String containerPrefix;
    private final int port = TestInfrastructure.freePort();
    private final FileLog log;
    private final Supplier<Map<String, String>> environment;
    private final DockerEngine docker;
    private final Network network;
    private volatile DockerEngine.Run run;
    private volatile String crashAt = "";
    private int runs;

    /**
     * @param environment the container's environment besides the crash points: connection settings and
     *                    the harness's Spring properties (asked again at every start)
     */
    ContainerServiceNode(String name, Service service, String image, String containerPrefix, Path logDir,
            Supplier<Map<String, String>> environment, DockerEngine docker, Network network) {
        this.name = name;
        this.service = service;
        this.image = image;
        this.containerPrefix = containerPrefix;
        this.log = new FileLog(logDir.resolve(name + ".log"));
        this.environment = environment;
        this.docker = docker;
        this.network = network;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Service service() {
        return service;
    }

    @Override
    public URI baseUrl() {
        return URI.create("http://localhost:" + port);
    }

    @Override
    public synchronized void start(String crashAt) {
        if (isRunning()) {
            throw new IllegalStateException(name + " is already running");
        }
        removeContainer();
        Map<String, String> env = new LinkedHashMap<>(environment.get());
        env.put("FAULTS_CRASH_AT", crashAt);
        // The tests' token issuer: its public key is copied into the container below.
        env.put(TestTokens.ENVIRONMENT, "file:/tmp/" + TestTokens.publicKeyFile().getFileName());
        this.crashAt = crashAt;
        runs++;
        log.note("run " + runs + " of " + name + " at " + Instant.now()
                + (crashAt.isEmpty() ? "" : " with faults.crash-at=" + crashAt));
        // The provider's stand-in is found by name, as in compose; our services are reached on their host ports.
        List<String> aliases = service.isOurs() ? List.of() : List.of(service.moduleName());
        String id = docker.create(new DockerEngine.Spec(containerPrefix + name + "-" + runs, image, env, null, aliases,
                Map.of(service.defaultPort(), port), 512L * 1024 * 1024, List.of()), network);
        docker.copyInto(id, TestTokens.publicKeyFile(), "/tmp");
        run = docker.start(id, log.file());
    }

    @Override
    public void awaitReady(Duration timeout) {
        DockerEngine.Run current = current();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest request = HttpRequest.newBuilder(baseUrl().resolve("/readyz"))
                .timeout(Duration.ofSeconds(2)).build();
        Awaitility.await(name + " ready").atMost(timeout).pollInterval(Duration.ofMillis(250)).until(() -> {
            if (current.ended()) {
                throw new AssertionError(name + " exited with " + current.exitCode() + " before it was ready; log: "
                        + log.location());
            }
            try {
                return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                // Docker's port proxy accepts and drops connections while nothing listens inside yet.
                return false;
            }
        });
    }

    /** Whether the current container runs (a paused one does); known from Docker's wait, without a request per call. */
    @Override
    public boolean isRunning() {
        DockerEngine.Run current = run;
        return current != null && !current.ended();
    }

    @Override
    public int stop(Duration grace) {
        DockerEngine.Run current = current();
        docker.stop(current.containerId(), grace);
        return current.awaitEnd(KILL_TIMEOUT, name);
    }

    @Override
    public void kill() {
        DockerEngine.Run current = current();
        if (isPaused()) {
            // Docker kills a paused container too, but say so in the log: the zombie never woke up.
            log.note("killing " + name + " while paused");
        }
        docker.kill(current.containerId());
        current.awaitEnd(KILL_TIMEOUT, name);
    }

    @Override
    public void pause() {
        docker.pause(current().containerId());
    }

    @Override
    public void resume() {
        docker.unpause(current().containerId());
    }

    @Override
    public boolean isPaused() {
        DockerEngine.Run current = run;
        return current != null && !current.ended() && docker.state(current.containerId())
                .map(state -> Boolean.TRUE.equals(state.getPaused())).orElse(false);
    }

    @Override
    public int awaitExit(Duration timeout) {
        return current().awaitEnd(timeout, name + " (log: " + log.location() + ")");
    }

    @Override
    public String crashAt() {
        return crashAt;
    }

    /** The container's main process is the JVM (the image's entrypoint execs java); seen from the host's /proc. */
    @Override
    public long residentMemoryBytes() {
        String id = current().containerId();
        Long pid = docker.state(id).map(state -> state.getPidLong()).filter(hostPid -> hostPid > 0)
                .orElseThrow(() -> new IllegalStateException(name + " is not running"));
        return Signals.residentBytes(pid);
    }

    @Override
    public NodeLog log() {
        return log;
    }

    /** Removes the current container, running or not (the topology's close, or before the next start). */
    synchronized void removeContainer() {
        DockerEngine.Run current = run;
        if (current != null) {
            docker.remove(current.containerId());
            current.closeOutput();
        }
    }

    private DockerEngine.Run current() {
        DockerEngine.Run current = run;
        if (current == null) {
            throw new IllegalStateException(name + " was never started");
        }
        return current;
    }

    @Override
    public String toString() {
        DockerEngine.Run current = run;
        return name + " (" + baseUrl() + (current == null ? "" : ", container " + current.containerId().substring(0, 12))
                + ")";
    }
}
