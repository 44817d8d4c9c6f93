package com.example.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

/**
 * A Spring Boot application started in a child JVM, for tests that need a process to really die
 * (crash points halt the JVM) and come back. Spring properties are passed as {@code --key=value}
 * arguments; output goes to a log file. {@link #close()} kills the process, so a test that fails
 * leaves nothing behind.
 */
public final class JavaProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;

    private JavaProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts an executable jar, e.g. {@code target/inventory-service.jar}. */
    public static JavaProcess startJar(Path jar, Map<String, ?> properties, Path log) {
        return startJar(jar, List.of(), properties, log);
    }

    /** Starts an executable jar with JVM options of its own (e.g. a class-data sharing archive) after the defaults. */
    public static JavaProcess startJar(Path jar, List<String> jvmOptions, Map<String, ?> properties, Path log) {
        List<String> target = new ArrayList<>(jvmOptions);
        target.addAll(List.of("-jar", jar.toString()));
        return start(jar.getFileName().toString(), target, properties, log);
    }

    /** Starts a main class with the current test class path (for modules that have no executable jar). */
    public static JavaProcess startMain(Class<?> mainClass, Map<String, ?> properties, Path log) {
        return start(mainClass.getSimpleName(),
                List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()), properties, log);
    }

    private static JavaProcess start(String name, List<String> target, Map<String, ?> properties, Path log) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        command.addAll(target);
        properties.forEach((key, value) -> command.add("--" + key + "=" + value));
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new JavaProcess(name, process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name, e);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** Waits for the process to end by itself and returns its exit code. */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(name + " still running after " + timeout + "; log: " + log);
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGTERM: the application shuts down gracefully (see {@link #awaitExit}). */
    public void stop() {
        process.destroy();
    }

    /** SIGKILL: no shutdown hooks, no cleanup. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the service's readiness endpoint answers 200; fails at once if the process dies. */
    public void awaitReady(int port, Duration timeout) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/readyz"))
                .timeout(Duration.ofSeconds(2)).build();
        Awaitility.await(name + " ready").atMost(timeout).pollInterval(Duration.ofMillis(250)).until(() -> {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited with " + process.exitValue() + " before it was ready; log: " + log);
            }
            try {
                return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            }
        });
    }

    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ", log " + log + ")";
    }
}
