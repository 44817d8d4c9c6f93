package com.example.e2e.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remembers every process the driver starts (pid and a marker from its command line) in a file, so
 * that a run whose JVM was killed before its shutdown hooks ran (kill -9, a CI timeout) has its
 * processes reaped by the next run. The marker (found in the process's command line or environment)
 * tells our own leftover from a process that merely reuses the pid.
 */
final class Leftovers {

    private static final Logger log = LoggerFactory.getLogger(Leftovers.class);

    private final Path file;

    Leftovers(Path file) {
        this.file = file;
    }

    /** Kills whatever a previous run left behind and forgets it. */
    void reap() {
        if (!Files.exists(file)) {
            return;
        }
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (String line : lines) {
                int tab = line.indexOf('\t');
                if (tab < 0) {
                    continue;
                }
                long pid = Long.parseLong(line.substring(0, tab));
                String marker = line.substring(tab + 1);
                if (Signals.identity(pid).filter(identity -> identity.contains(marker)).isPresent()) {
                    log.warn("Killing process {} left behind by an earlier e2e run ({})", pid, marker);
                    Signals.killAndWait(pid, Duration.ofSeconds(30));
                }
            }
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    synchronized void remember(long pid, String marker) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, pid + "\t" + marker + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
