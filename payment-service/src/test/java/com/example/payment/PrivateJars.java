package com.example.payment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Copies of the executable jars the tests start, made once per test JVM. A process reads classes from its jar for as
 * long as it runs: a build of the same module meanwhile (another reactor build on the machine) replaces the jar under
 * it, and the process starts failing with NoClassDefFoundError halfway through a test.
 */
final class PrivateJars {

    private static final Path DIRECTORY = Path.of("target", "it-jars");
    private static final Map<Path, Path> COPIES = new ConcurrentHashMap<>();

    private PrivateJars() {
    }

    static Path copyOf(Path jar) {
        return COPIES.computeIfAbsent(jar.toAbsolutePath().normalize(), PrivateJars::copy);
    }

    private static Path copy(Path jar) {
        try {
            Files.createDirectories(DIRECTORY);
            Path copy = DIRECTORY.resolve(jar.getFileName());
            Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException("could not copy " + jar, e);
        }
    }
}
