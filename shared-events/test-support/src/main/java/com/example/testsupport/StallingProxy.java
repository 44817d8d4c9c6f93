package com.example.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A TCP proxy whose connections can be made to stop answering without closing: the failure a
 * client cannot tell from a slow peer (a half-dead connection after a database restart, a
 * network partition). Connections opened after {@link #stallExisting()} pass traffic normally.
 */
public final class StallingProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket server;
    private final List<Link> links = new CopyOnWriteArrayList<>();

    public StallingProxy(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        try {
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::accept, "stalling-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Every connection open now stops passing bytes in both directions and stays open. */
    public void stallExisting() {
        links.forEach(link -> link.stalled = true);
    }

    /** Connections opened so far, stalled or not. */
    public int connectionsOpened() {
        return links.size();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        links.forEach(Link::close);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(targetHost, targetPort);
                Link link = new Link(client, upstream);
                links.add(link);
                pump(link, client, upstream, "up");
                pump(link, upstream, client, "down");
            } catch (IOException e) {
                // server closed, or the target refused: the client sees its connection fail
            }
        }
    }

    private static void pump(Link link, Socket from, Socket to, String direction) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    if (link.stalled) {
                        // Frozen: hold the bytes until the link is closed, then drop them.
                        link.closed.await();
                        break;
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the link is over
            } finally {
                link.close();
            }
        }, "stalling-proxy-" + direction);
        thread.setDaemon(true);
        thread.start();
    }

    private static final class Link {
        private final Socket client;
        private final Socket upstream;
        private final CountDownLatch closed = new CountDownLatch(1);
        private volatile boolean stalled;

        Link(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void close() {
            closed.countDown();
            try {
                client.close();
            } catch (IOException ignored) {
                // already closed
            }
            try {
                upstream.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }
}
