package com.example.e2e.topology;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Image;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import com.github.dockerjava.api.model.WaitContainerCondition;
import com.github.dockerjava.api.model.WaitResponse;

/**
 * The Docker calls of the containers driver, through Testcontainers' client (found the way Testcontainers
 * finds a daemon: {@code DOCKER_HOST}, the local socket, {@code ~/.testcontainers.properties}). Testcontainers'
 * own container lifecycle does not fit a nemesis (random host ports, a container is stopped by removing it),
 * so the driver creates, starts, kills and pauses its containers itself. Everything it creates carries the
 * labels of this harness, so a run killed before it could clean up has its containers and network removed by
 * the next run ({@link #removeLeftovers()}); without Ryuk nobody else would.
 */
final class DockerEngine {

    private static final Logger log = LoggerFactory.getLogger(DockerEngine.class);

    /** Which harness output directory a container belongs to: leftovers of this checkout only, not of others. */
    static final String HARNESS_LABEL = "com.example.e2e.harness";
    /** Which run created it, to tell in {@code docker ps} whose a container is. */
    static final String RUN_LABEL = "com.example.e2e.run";

    private final DockerClient client = DockerClientFactory.instance().client();
    private final Map<String, String> labels;
    private final String harness;

    DockerEngine(Path output, String runId) {
        this.harness = output.toAbsolutePath().normalize().toString();
        this.labels = Map.of(HARNESS_LABEL, harness, RUN_LABEL, runId);
    }

    Map<String, String> labels() {
        return labels;
    }

    /** A network of its own for the run, so that the services find the database and broker by name. */
    Network network(String name) {
        Network network = Network.builder().createNetworkCmdModifier(cmd -> {
            Map<String, String> all = new HashMap<>(cmd.getLabels() == null ? Map.of() : cmd.getLabels());
            all.putAll(labels);
            cmd.withName(name).withLabels(all);
        }).build();
        network.getId();
        return network;
    }

    /** Removes the containers and networks an earlier run of this harness left behind (its JVM was killed). */
    void removeLeftovers() {
        List<Container> containers = client.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(HARNESS_LABEL, harness)).exec();
        for (Container container : containers) {
            log.warn("Removing container {} {} left behind by an earlier e2e run", container.getId().substring(0, 12),
                    List.of(container.getNames()));
            remove(container.getId());
        }
        client.listNetworksCmd().withFilter("label", List.of(HARNESS_LABEL + "=" + harness)).exec().forEach(network -> {
            log.warn("Removing network {} left behind by an earlier e2e run", network.getName());
            Steps.quietly(() -> client.removeNetworkCmd(network.getId()).exec());
        });
        // A service image rebuilt from a new jar leaves the previous one untagged; those are ours to delete.
        List<Image> dangling = client.listImagesCmd().withDanglingFilter(true)
                .withLabelFilter(Map.of(HARNESS_LABEL, harness)).exec();
        dangling.forEach(image -> Steps.quietly(() -> client.removeImageCmd(image.getId()).exec()));
    }

    /** Removes every container and network of this run, also those of a start that failed half-way. */
    void removeRun() {
        String run = labels.get(RUN_LABEL);
        for (Container container : client.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(RUN_LABEL, run)).exec()) {
            Steps.quietly(() -> remove(container.getId()));
        }
        client.listNetworksCmd().withFilter("label", List.of(RUN_LABEL + "=" + run)).exec()
                .forEach(network -> Steps.quietly(() -> client.removeNetworkCmd(network.getId()).exec()));
    }

    /**
     * Makes sure an image is on this machine. An image that is missing is pulled (a registry may answer);
     * without one the error says how to build local stand-ins.
     */
    void requireImage(String image) {
        try {
            client.inspectImageCmd(image).exec();
            return;
        } catch (NotFoundException missing) {
            log.info("Image {} is not on this machine; pulling it", image);
        }
        try {
            if (!client.pullImageCmd(image).start().awaitCompletion(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("pulling " + image + " took over 5 minutes");
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException("image " + image + " is not on this machine and could not be pulled ("
                    + e.getMessage() + "); without a registry, build local stand-ins with docker/offline/build-images.sh "
                    + "and export the variables of docker/offline/offline.env", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What a container is made of; everything else (labels, the network) is the same for all. */
    record Spec(String name, String image, Map<String, String> environment, String hostname, List<String> aliases,
            Map<Integer, Integer> hostPorts, long memoryBytes, List<String> command) {
    }

    /** Creates a container (not started) on the network, with each container port bound to a fixed host port. */
    String create(Spec spec, Network network) {
        List<ExposedPort> exposed = new ArrayList<>();
        List<PortBinding> bindings = new ArrayList<>();
        spec.hostPorts().forEach((containerPort, hostPort) -> {
            ExposedPort port = ExposedPort.tcp(containerPort);
            exposed.add(port);
            bindings.add(new PortBinding(Ports.Binding.bindPort(hostPort), port));
        });
        HostConfig host = HostConfig.newHostConfig().withNetworkMode(network.getId()).withPortBindings(bindings);
        if (spec.memoryBytes() > 0) {
            // No swap either: a container over its limit is killed, as it would be in production.
            host.withMemory(spec.memoryBytes()).withMemorySwap(spec.memoryBytes());
        }
        List<String> environment = new ArrayList<>();
        spec.environment().forEach((key, value) -> environment.add(key + "=" + value));
        CreateContainerCmd create = client.createContainerCmd(spec.image()).withName(spec.name()).withLabels(labels)
                .withEnv(environment).withExposedPorts(exposed).withHostConfig(host).withAliases(spec.aliases());
        if (spec.hostname() != null) {
            create.withHostName(spec.hostname());
        }
        if (!spec.command().isEmpty()) {
            create.withCmd(spec.command());
        }
        return create.exec().getId();
    }

    /** Copies a file of this machine into a created container's directory (before it starts). */
    void copyInto(String id, Path file, String directory) {
        client.copyArchiveToContainerCmd(id).withHostResource(file.toString()).withRemotePath(directory).exec();
    }

    /**
     * Starts a created or stopped container. Its output is attached first, so the log file gets every line
     * of this run and none of an earlier run of the same container. The returned run ends with the container.
     */
    Run start(String id, Path logFile) {
        LogCopy copy = new LogCopy(logFile);
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        try {
            client.attachContainerCmd(id).withStdOut(true).withStdErr(true).withFollowStream(true).withLogs(false)
                    .exec(copy);
            if (!copy.awaitStarted(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("could not attach to the output of container " + id);
            }
            // Waiting for the next exit from before the start: an instance that dies at once is not missed.
            client.waitContainerCmd(id).withCondition(WaitContainerCondition.NEXT_EXIT).exec(new ExitWatch(id, exit));
            client.startContainerCmd(id).exec();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            copy.closeQuietly();
            throw new IllegalStateException(e);
        } catch (RuntimeException e) {
            copy.closeQuietly();
            exit.complete(-1);
            throw e;
        }
        return new Run(id, exit, copy);
    }

    /** {@code docker stop}: SIGTERM, then SIGKILL after {@code grace}; a container that is not running is left as it is. */
    void stop(String id, Duration grace) {
        try {
            client.stopContainerCmd(id).withTimeout((int) grace.toSeconds()).exec();
        } catch (ConflictException | NotModifiedException notRunning) {
            log.debug("container {} not running: {}", id, notRunning.getMessage());
        }
    }

    /** SIGKILL; a container that is not running (any more) is left as it is. */
    void kill(String id) {
        try {
            client.killContainerCmd(id).exec();
        } catch (ConflictException | NotModifiedException notRunning) {
            log.debug("container {} not running: {}", id, notRunning.getMessage());
        }
    }

    /** Runs a command in a running container, like {@code docker exec}; fails unless it exits with 0. */
    /** Runs a command in the container and returns what it printed; a non-zero exit fails. */
    String exec(String id, List<String> command) {
        String exec = client.execCreateCmd(id).withCmd(command.toArray(String[]::new)).withAttachStdout(true)
                .withAttachStderr(true).exec().getId();
        StringBuilder output = new StringBuilder();
        try {
            client.execStartCmd(exec).exec(new ResultCallback.Adapter<Frame>() {
                @Override
                public void onNext(Frame frame) {
                    output.append(new String(frame.getPayload()));
                }
            }).awaitCompletion(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
        Long exit = client.inspectExecCmd(exec).exec().getExitCodeLong();
        if (exit == null || exit != 0) {
            throw new IllegalStateException(String.join(" ", command) + " in container " + id + " ended with " + exit
                    + ": " + output);
        }
        return output.toString();
    }

    /** Freezes every process of the container (cgroup freezer): connections and locks stay, nothing runs. */
    void pause(String id) {
        client.pauseContainerCmd(id).exec();
    }

    void unpause(String id) {
        client.unpauseContainerCmd(id).exec();
    }

    /** The container's state now, or empty when it does not exist. */
    Optional<InspectContainerResponse.ContainerState> state(String id) {
        try {
            return Optional.ofNullable(client.inspectContainerCmd(id).exec().getState());
        } catch (NotFoundException e) {
            return Optional.empty();
        }
    }

    boolean isRunning(String id) {
        return state(id).map(state -> Boolean.TRUE.equals(state.getRunning())).orElse(false);
    }

    /** Kills and deletes a container with its anonymous volumes (the database's and broker's data). */
    void remove(String id) {
        try {
            client.removeContainerCmd(id).withForce(true).withRemoveVolumes(true).exec();
        } catch (NotFoundException gone) {
            log.debug("container {} already gone", id);
        }
    }

    /** One start of a container: when it ended and with which exit code, and the copy of its output. */
    static final class Run {

        private final String containerId;
        private final CompletableFuture<Integer> exit;
        private final LogCopy output;

        private Run(String containerId, CompletableFuture<Integer> exit, LogCopy output) {
            this.containerId = containerId;
            this.exit = exit;
            this.output = output;
        }

        String containerId() {
            return containerId;
        }

        boolean ended() {
            return exit.isDone();
        }

        /**
         * Waits for the container to end and its output to reach the log file (a crash point's last line is
         * the proof that it bit), and returns the exit code.
         *
         * @throws AssertionError when the container is still running after the timeout
         */
        int awaitEnd(Duration timeout, String what) {
            int code;
            try {
                code = exit.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError(what + " still running after " + timeout);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            output.awaitDrained(Duration.ofSeconds(10));
            return code;
        }

        /** The exit code once ended. */
        int exitCode() {
            return exit.getNow(-1);
        }

        void closeOutput() {
            output.closeQuietly();
        }
    }

    /**
     * Learns when a container ends. Should the long-running wait request break (the daemon restarts, a socket
     * times out), it asks again: waiting on a container that has already ended answers at once.
     */
    private final class ExitWatch extends ResultCallback.Adapter<WaitResponse> {

        private final String id;
        private final CompletableFuture<Integer> exit;

        ExitWatch(String id, CompletableFuture<Integer> exit) {
            this.id = id;
            this.exit = exit;
        }

        @Override
        public void onNext(WaitResponse response) {
            exit.complete(response.getStatusCode());
        }

        @Override
        public void onError(Throwable error) {
            closeStream(this);
            if (exit.isDone()) {
                return;
            }
            try {
                Optional<InspectContainerResponse.ContainerState> state = state(id);
                if (state.isEmpty()) {
                    exit.complete(-1);
                } else if (!Boolean.TRUE.equals(state.get().getRunning())) {
                    exit.complete(state.get().getExitCodeLong() == null ? -1 : state.get().getExitCodeLong().intValue());
                } else {
                    log.debug("waiting for container {} broke off ({}); waiting again", id, error.toString());
                    client.waitContainerCmd(id).exec(new ExitWatch(id, exit));
                }
            } catch (RuntimeException daemonGone) {
                // Without an answer from Docker the container counts as ended rather than running for ever.
                log.warn("lost track of container {}: {}", id, daemonGone.toString());
                exit.complete(-1);
            }
        }

        @Override
        public void onComplete() {
            if (exit.isDone()) {
                closeStream(this);
            } else {
                onError(new IllegalStateException("wait ended without a status"));
            }
        }
    }

    /** Appends a container's stdout and stderr to its node's log file, as a child process's redirect would. */
    private static final class LogCopy extends ResultCallback.Adapter<Frame> {

        private final OutputStream file;
        private final CompletableFuture<Void> drained = new CompletableFuture<>();

        LogCopy(Path logFile) {
            try {
                Files.createDirectories(logFile.toAbsolutePath().getParent());
                this.file = new FileOutputStream(logFile.toFile(), true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void onNext(Frame frame) {
            try {
                file.write(frame.getPayload());
            } catch (IOException e) {
                log.debug("could not copy container output", e);
            }
        }

        @Override
        public void onError(Throwable error) {
            // Not the adapter's: it logs an error, and an output stream cut short is no failure of the run.
            log.debug("container output ended with {}", error.toString());
            finish();
            closeStream(this);
        }

        @Override
        public void onComplete() {
            finish();
            closeStream(this);
        }

        void awaitDrained(Duration timeout) {
            try {
                drained.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                log.warn("the output of an ended container did not finish within {}", timeout);
            } catch (ExecutionException e) {
                log.debug("container output", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void closeQuietly() {
            closeStream(this);
            finish();
        }

        private void finish() {
            try {
                file.close();
            } catch (IOException e) {
                log.debug("closing a log file", e);
            }
            drained.complete(null);
        }
    }

    /** Ends a streaming request (and frees its connection); the stream may be over already. */
    private static void closeStream(ResultCallback.Adapter<?> callback) {
        try {
            callback.close();
        } catch (IOException e) {
            log.debug("closing a Docker stream", e);
        }
    }
}
