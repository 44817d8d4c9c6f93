package com.example.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The stacks of every thread of this JVM, written to a file, for a test that saw something hang. */
final class ThreadDumps {

    private static final Logger log = LoggerFactory.getLogger(ThreadDumps.class);

    private ThreadDumps() {
    }

    /**
     * One HTTP exchange of a {@code WebTestClient}. One that gets no answer within the client's response timeout is
     * tried once more, after the threads of this JVM (the test's and the service's) were written to {@code target/}
     * with a warning: fresh-clone CI runs twice saw a service's first calls hang for 30 s in its startup test (a call
     * with an expired token in coupon-service, the management port's health in inventory-service), and six and more
     * local runs did not; a next time the dump says where it waits.
     */
    static <T> T retryOnceIfUnanswered(String what, Supplier<T> exchange) {
        try {
            return exchange.get();
        } catch (IllegalStateException noAnswer) {
            if (!(noAnswer.getCause() instanceof TimeoutException)) {
                throw noAnswer;
            }
            Path dump = write(what.replaceAll("[^A-Za-z0-9-]+", "-"));
            log.warn("{} got no answer in time; threads written to {}; trying once more", what, dump);
            return exchange.get();
        }
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
