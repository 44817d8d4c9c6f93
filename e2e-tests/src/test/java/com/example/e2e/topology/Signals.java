package com.example.e2e.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * POSIX signals by pid, for processes the JDK cannot stop or pause itself (SIGSTOP, a detached broker),
 * and what {@code /proc} tells of a process.
 */
final class Signals {

    private Signals() {
    }

    static void send(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed: "
                        + new String(kill.getInputStream().readAllBytes()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** SIGKILL, then waits until the process is gone. */
    static void killAndWait(long pid, Duration timeout) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return;
        }
        send(pid, "KILL");
        try {
            handle.get().onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            if (state(pid).filter(state -> state != 'Z').isPresent()) {
                throw new IllegalStateException("process " + pid + " still alive " + timeout + " after SIGKILL");
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The command line and environment of a live process, to tell our own leftovers from an unrelated
     * process with a reused pid (a RabbitMQ node carries its node name only in its environment).
     */
    static Optional<String> identity(long pid) {
        try {
            Path proc = Path.of("/proc", Long.toString(pid));
            byte[] command = Files.readAllBytes(proc.resolve("cmdline"));
            byte[] environment = Files.isReadable(proc.resolve("environ")) ? Files.readAllBytes(proc.resolve("environ"))
                    : new byte[0];
            return Optional.of((new String(command) + " " + new String(environment)).replace('\0', ' '));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** 'T' while stopped by SIGSTOP, 'Z' once dead but not reaped; empty when there is no such process. */
    static Optional<Character> state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return Optional.of(stat.charAt(stat.lastIndexOf(')') + 2));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The process's resident set size in bytes ({@code VmRSS} in {@code /proc/<pid>/status}). */
    static long residentBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] fields = line.substring("VmRSS:".length()).trim().split("\\s+");
                    if (!fields[1].equals("kB")) {
                        throw new IllegalStateException("VmRSS of process " + pid + " in unexpected units: " + line);
                    }
                    return Long.parseLong(fields[0]) * 1024;
                }
            }
            throw new IllegalStateException("process " + pid + " has no VmRSS (a kernel thread, or a zombie)");
        } catch (IOException e) {
            throw new UncheckedIOException("process " + pid + " is gone", e);
        }
    }
}
