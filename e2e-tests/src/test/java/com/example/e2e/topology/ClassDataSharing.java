package com.example.e2e.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes service starts cheaper, since the suite starts services dozens of times: each jar is
 * extracted (Spring Boot's {@code -Djarmode=tools extract}) and started once for training with
 * {@code -XX:ArchiveClassesAtExit} and {@code -Dspring.context.exit=onRefresh} (the context refreshes,
 * then the JVM exits before any listener or relay starts), which leaves a class-data sharing archive
 * that every later start maps instead of loading and verifying the same classes again (about a third
 * of a start here). The archive is kept until the jar changes. When anything about it fails, the
 * service simply starts from its jar.
 */
final class ClassDataSharing {

    private static final Logger log = LoggerFactory.getLogger(ClassDataSharing.class);

    private final Path root;
    private final boolean enabled;

    /** How to start a service: which jar, with which JVM options besides the defaults. */
    record Launch(Path jar, List<String> jvmOptions) {
    }

    ClassDataSharing(Path root, boolean enabled) {
        this.root = root;
        this.enabled = enabled;
    }

    /**
     * The launch for a service, training its archive first when there is none for this jar yet.
     *
     * @param settings the Spring properties of a real start (the training run connects like one)
     */
    Launch prepare(Service service, Path jar, Map<String, Object> settings, Path logDir) {
        if (!enabled) {
            return new Launch(jar, List.of());
        }
        Path dir = root.resolve(service.moduleName());
        Path archive = dir.resolve("app.jsa");
        Path extracted = dir.resolve("app").resolve(jar.getFileName());
        Launch launch = new Launch(extracted, List.of("-XX:SharedArchiveFile=" + archive));
        try {
            String key = Files.size(jar) + " " + Files.getLastModifiedTime(jar).toMillis();
            Path keyFile = dir.resolve("jar.key");
            if (Files.exists(archive) && Files.exists(extracted) && Files.exists(keyFile)
                    && Files.readString(keyFile).equals(key)) {
                return launch;
            }
            deleteRecursively(dir);
            Files.createDirectories(dir);
            Path trainingLog = logDir.resolve(service.moduleName() + "-cds-training.log");
            run(List.of(java(), "-Djarmode=tools", "-jar", jar.toString(), "extract", "--destination",
                    dir.resolve("app").toString()), trainingLog);
            List<String> training = new ArrayList<>(List.of(java(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC", "-XX:ArchiveClassesAtExit=" + archive, "-Dspring.context.exit=onRefresh",
                    "-jar", extracted.toString()));
            settings.forEach((name, value) -> training.add("--" + name + "=" + value));
            training.add("--server.port=0");
            training.add("--management.server.port=0");
            run(training, trainingLog);
            if (!Files.exists(archive)) {
                throw new IllegalStateException("no archive after training; see " + trainingLog);
            }
            Files.writeString(keyFile, key);
            return launch;
        } catch (IOException | RuntimeException e) {
            log.warn("{} starts without a class-data sharing archive: {}", service, e.toString());
            return new Launch(jar, List.of());
        }
    }

    private static void run(List<String> command, Path log) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        try {
            if (!process.waitFor(3, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException(command.get(command.size() - 1) + " did not finish; see " + log);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("exit code " + process.exitValue() + "; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException(e);
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
