package com.example.e2e.topology;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import com.example.testsupport.JavaProcess;
import com.example.testsupport.TestInfrastructure;

/** A service instance as a child JVM running the service's executable jar. */
final class ProcessServiceNode implements ServiceNode {

    private final String name;
    private final Service service;
    /** Read at every start: a benchmark restarts instances with JVM options of a lever. */
    private final Supplier<ClassDataSharing.Launch> launch;
    private final int port = TestInfrastructure.freePort();
    /** The actuator's own port (several instances of a service share the machine). */
    private final int managementPort = TestInfrastructure.freePort();
    private final FileLog log;
    private final Supplier<Map<String, Object>> settings;
    private final Leftovers leftovers;
    private volatile JavaProcess process;
    private volatile String crashAt = "";
    private int runs;

    ProcessServiceNode(String name, Service service, Supplier<ClassDataSharing.Launch> launch, Path logDir,
            Supplier<Map<String, Object>> settings, Leftovers leftovers) {
        this.name = name;
        this.service = service;
        this.launch = launch;
        this.log = new FileLog(logDir.resolve(name + ".log"));
        this.settings = settings;
        this.leftovers = leftovers;
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
        Map<String, Object> properties = new LinkedHashMap<>(settings.get());
        properties.put("server.port", port);
        properties.put("management.server.port", managementPort);
        properties.put("faults.crash-at", crashAt);
        this.crashAt = crashAt;
        runs++;
        log.note("run " + runs + " of " + name + " at " + Instant.now()
                + (crashAt.isEmpty() ? "" : " with faults.crash-at=" + crashAt));
        ClassDataSharing.Launch current = launch.get();
        process = JavaProcess.startJar(current.jar(), current.jvmOptions(), properties, log.file());
        leftovers.remember(process.pid(), "--server.port=" + port);
    }

    @Override
    public void awaitReady(Duration timeout) {
        current().awaitReady(port, timeout);
    }

    @Override
    public boolean isRunning() {
        JavaProcess current = process;
        return current != null && current.isAlive();
    }

    @Override
    public int stop(Duration grace) {
        JavaProcess current = current();
        current.stop();
        try {
            return current.awaitExit(grace);
        } catch (AssertionError stillRunning) {
            log.note("killing " + name + ": still running " + grace.toSeconds() + " s after SIGTERM");
            current.kill();
            return 137;
        }
    }

    @Override
    public void kill() {
        JavaProcess current = current();
        if (Signals.state(current.pid()).filter(state -> state == 'T').isPresent()) {
            // SIGKILL works on a stopped process too, but say so in the log: the zombie never woke up.
            log.note("killing " + name + " while paused");
        }
        current.kill();
    }

    @Override
    public void pause() {
        Signals.send(current().pid(), "STOP");
    }

    @Override
    public void resume() {
        Signals.send(current().pid(), "CONT");
    }

    @Override
    public boolean isPaused() {
        JavaProcess current = process;
        return current != null && Signals.state(current.pid()).filter(state -> state == 'T').isPresent();
    }

    @Override
    public int awaitExit(Duration timeout) {
        return current().awaitExit(timeout);
    }

    @Override
    public String crashAt() {
        return crashAt;
    }

    @Override
    public long residentMemoryBytes() {
        return Signals.residentBytes(current().pid());
    }

    /** The running instance's JVM. */
    long pid() {
        return current().pid();
    }

    @Override
    public NodeLog log() {
        return log;
    }

    private JavaProcess current() {
        JavaProcess current = process;
        if (current == null) {
            throw new IllegalStateException(name + " was never started");
        }
        return current;
    }

    @Override
    public String toString() {
        JavaProcess current = process;
        return name + " (" + baseUrl() + (current == null ? "" : ", pid " + current.pid()) + ")";
    }
}
