package com.example.e2e.topology;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A log file that only grows (every run of a node appends to it). */
final class FileLog implements NodeLog {

    private final Path file;

    FileLog(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    @Override
    public long mark() {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public String since(long mark) {
        if (!Files.exists(file)) {
            return "";
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            if (length <= mark) {
                return "";
            }
            byte[] bytes = new byte[Math.toIntExact(length - mark)];
            in.seek(mark);
            in.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Appends a line of the harness's own, so a reader of the log sees where each run begins. */
    void note(String line) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, System.lineSeparator() + "=== e2e harness: " + line + System.lineSeparator(),
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String location() {
        return file.toAbsolutePath().normalize().toString();
    }
}
