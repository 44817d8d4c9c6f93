package com.example.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands out TCP ports for servers a test starts later (a service, a throw-away broker or database, a container's
 * published port).
 *
 * <p>The ports come from below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}), not from it: a
 * port the kernel offers for {@code bind(0)} is one it also gives to outgoing connections, so between the pick and
 * the server's bind any connection on the machine (a pool to PostgreSQL, an AMQP client, an HTTP client) could take
 * it and the server would fail with "address already in use". Below the range only a listener can hold a port, and
 * each candidate is checked with a bind before it is handed out. The walk starts at a random place so that two JVMs
 * on the machine rarely offer the same port.
 */
final class FreePorts {

    /** Lowest port handed out: clear of the well-known and most registered servers' ports. */
    static final int LOWEST = 20_000;

    /** Fewest ports below the ephemeral range worth walking; with fewer, the kernel's choice is used. */
    private static final int FEWEST = 1_000;

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    /** Where Linux starts its ephemeral range by default, for machines that do not say. */
    private static final int DEFAULT_EPHEMERAL_LOW = 32_768;

    /** A random start: the walk wraps around, so any start will do, and two JVMs rarely start at the same place. */
    private static final FreePorts INSTANCE = new FreePorts(ephemeralLow(), ThreadLocalRandom.current().nextInt());

    private final int size;
    private final AtomicInteger next;

    /** Walks the ports from {@link #LOWEST} to below {@code ephemeralLow}, starting {@code start} ports in. */
    FreePorts(int ephemeralLow, int start) {
        this.size = Math.max(0, ephemeralLow - LOWEST);
        this.next = new AtomicInteger(start);
    }

    static int take() {
        return INSTANCE.pick();
    }

    int pick() {
        if (size < FEWEST) {
            return kernelsChoice();
        }
        for (int tried = 0; tried < size; tried++) {
            int port = LOWEST + Math.floorMod(next.getAndIncrement(), size);
            if (bindable(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port between " + LOWEST + " and " + (LOWEST + size - 1));
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            // As the servers bind theirs (Netty, PostgreSQL, RabbitMQ set SO_REUSEADDR): a connection of an earlier
            // server on this port lingering in TIME_WAIT does not make it unusable.
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int kernelsChoice() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int ephemeralLow() {
        try {
            // Line by line: procfs reports a size of 0, and a read sized by it (Files.readString) stops after one byte.
            String[] bounds = Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+");
            return Integer.parseInt(bounds[0]);
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_LOW;
        }
    }
}
