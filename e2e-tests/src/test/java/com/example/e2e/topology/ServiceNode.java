package com.example.e2e.topology;

import java.net.URI;
import java.time.Duration;

/**
 * One instance of a service (a process, or a container under a container driver). Starting is
 * asynchronous, so a nemesis can kill an instance while it is still starting up.
 */
public interface ServiceNode {

    /** Unique within a topology, e.g. {@code inventory-service-2}; also the name of its log. */
    String name();

    Service service();

    /** Where its HTTP API answers. */
    URI baseUrl();

    /**
     * Starts the instance (again), with the given crash points armed ({@code faults.crash-at}), or
     * none when {@code crashAt} is empty. Returns without waiting for readiness.
     */
    void start(String crashAt);

    /** Waits until the readiness endpoint answers; fails at once when the instance dies first. */
    void awaitReady(Duration timeout);

    boolean isRunning();

    /**
     * SIGTERM (of the process, or {@code docker stop} with {@code grace}), as a deployment stops an instance: the
     * service drains and stops by itself. Returns the exit code: 143 after a graceful stop of the JVM, 137 when it
     * did not end within {@code grace} and was killed.
     */
    int stop(Duration grace);

    /** SIGKILL (of the process, or {@code docker kill}): no shutdown hooks, no graceful stop of listeners or transactions. */
    void kill();

    /**
     * SIGSTOP (or {@code docker pause}, which freezes the container's processes): it keeps its connections
     * and locks but does nothing (a zombie).
     */
    void pause();

    /** SIGCONT (or {@code docker unpause}) after {@link #pause()}. */
    void resume();

    /** Whether the instance is stopped by {@link #pause()} right now. */
    boolean isPaused();

    /** Waits for the instance to end by itself and returns its exit code (86 for a crash point). */
    int awaitExit(Duration timeout);

    /** The crash points the current (or last) run was started with; empty when none. */
    String crashAt();

    /** The resident set size of the running instance's JVM in bytes (VmRSS), as the operating system counts it. */
    long residentMemoryBytes();

    /** The instance's log, across all its runs. */
    NodeLog log();
}
