package com.example.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/** The stacks of every thread of this JVM, written to a file, for a test that saw something hang. */
final class ThreadDumps {

    private ThreadDumps() {
    }

    /** Writes {@code target/thread-dumps/<name>-<time>.txt} (relative to the working directory) and returns it. */
    static Path write(String name) {
        StringBuilder dump = new StringBuilder();
        for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            dump.append('"').append(thread.getThreadName()).append("\" ").append(thread.getThreadState());
            if (thread.getLockName() != null) {
                dump.append(" on ").append(thread.getLockName());
            }
            if (thread.getLockOwnerName() != null) {
                dump.append(" owned by \"").append(thread.getLockOwnerName()).append('"');
            }
            dump.append('\n');
            for (StackTraceElement frame : thread.getStackTrace()) {
                dump.append("\tat ").append(frame).append('\n');
            }
            dump.append('\n');
        }
        try {
            Path file = Path.of("target", "thread-dumps", name + "-" + Instant.now().toString().replace(':', '-')
                    + ".txt");
            Files.createDirectories(file.getParent());
            return Files.writeString(file, dump);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write a thread dump", e);
        }
    }
}
