package com.example.e2e.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;

import com.example.service.database.DatabaseRoles;

import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code containers} driver: PostgreSQL, RabbitMQ, the services and the payment simulator as Docker containers on a network
 * of their own, the services from images built of this checkout's jars ({@code docker/service.Dockerfile}).
 * Every container publishes its ports on host ports chosen here and bound fixed, so that a killed and restarted
 * container answers where it did before. Base images come from {@code JRE_IMAGE}, {@code POSTGRES_IMAGE} and
 * {@code RABBITMQ_IMAGE} (system property, environment variable, or {@code docker/offline/offline.env}), which is how offline
 * stand-ins are chosen.
 *
 * <p>It works without Testcontainers' Ryuk reaper (unavailable offline): everything it creates is removed by
 * {@link #close()}, by a shutdown hook when the JVM ends first, and, should the JVM be killed outright, by the
 * next run, which finds the leftovers by their labels (see {@link DockerEngine#removeLeftovers()}).
 */
public final class ContainerTopology implements Topology {

    private static final Logger log = LoggerFactory.getLogger(ContainerTopology.class);
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HarnessPaths paths;
    private final Function<Service, Map<String, Object>> serviceSettings;
    private final String runId = UUID.randomUUID().toString().substring(0, 8);
    private final List<ContainerServiceNode> nodes = new CopyOnWriteArrayList<>();
    private final Map<Service, Integer> instanceCounts = Collections.synchronizedMap(new EnumMap<>(Service.class));
    private final Map<Service, String> images = Collections.synchronizedMap(new EnumMap<>(Service.class));
    private final Thread shutdownHook = new Thread(this::close, "e2e-topology-stop");
    private volatile DockerEngine docker;
    private volatile Network network;
    private volatile ContainerPostgresNode database;
    private volatile Map<Service, DatabaseRoles.Access> roles;
    /** Each service's broker password; it connects as its own user, named after it. */
    private volatile Map<Service, String> brokerPasswords;
    private volatile ContainerRabbitNode broker;
    private volatile boolean closed;
    /** The payment provider's API key, as payment-service and the simulator share it. */
    private final String providerKey = Steps.secret();

    /**
     * @param serviceSettings Spring properties a scenario suite adds for each service (e.g. risk rules),
     *                        besides the connection settings this driver sets
     */
    public ContainerTopology(HarnessPaths paths, Function<Service, Map<String, Object>> serviceSettings) {
        this.paths = paths;
        this.serviceSettings = serviceSettings;
    }

    /** Whether a Docker daemon answers (the {@code auto} driver choice). */
    public static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    @Override
    public void start(Set<Service> heldBack) {
        docker = new DockerEngine(paths.output(), runId);
        docker.removeLeftovers();
        Steps.freshLogDirectory(paths.logs());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        long started = System.nanoTime();
        String postgresImage = setting("POSTGRES_IMAGE", "postgres:15");
        String rabbitImage = setting("RABBITMQ_IMAGE", "rabbitmq:3-management");
        String jreImage = setting("JRE_IMAGE", "eclipse-temurin:17-jre");
        for (String image : List.of(postgresImage, rabbitImage, jreImage)) {
            docker.requireImage(image);
        }
        network = docker.network(prefix() + "net");
        // The images build while the database and the broker start.
        List<Runnable> preparations = new ArrayList<>();
        preparations.add(() -> {
            database = ContainerPostgresNode.start(docker, postgresImage, prefix() + "postgres", network, paths.logs());
            roles = Steps.provisionDatabases(database);
        });
        preparations.add(() -> broker = ContainerRabbitNode.start(docker, rabbitImage, prefix() + "rabbitmq", network,
                paths.logs()));
        for (Service service : Service.values()) {
            preparations.add(() -> images.put(service, ServiceImages.build(service, paths, jreImage, docker.labels())));
        }
        Steps.inParallel(preparations);
        log.info("Containers on network {}: {} and {}", prefix() + "net", database, broker);
        brokerPasswords = Steps.provisionTopology(broker);
        List<ServiceNode> first = Steps.startFirstInstances(this::addInstance, READY_TIMEOUT, heldBack);
        log.info("{} ready after {} s: {}{}", first.size() == Service.values().length ? "Every service is"
                : "The services not held back are", Duration.ofNanos(System.nanoTime() - started).toSeconds(), first,
                heldBack.isEmpty() ? "" : " (held back: " + heldBack + ")");
    }

    @Override
    public List<ServiceNode> nodes() {
        return List.copyOf(nodes);
    }



    @Override
    public ServiceNode addInstance(Service service) {
        int number = instanceCounts.merge(service, 1, Integer::sum);
        String image = images.get(service);
        if (image == null) {
            throw new IllegalStateException("the image of " + service + " is not built; start the topology first");
        }
        ContainerServiceNode node = new ContainerServiceNode(service.moduleName() + "-" + number, service, image,
                prefix(), paths.logs(), () -> environmentOf(service), docker, network);
        nodes.add(node);
        return node;
    }

    @Override
    public BrokerNode broker() {
        return broker;
    }

    @Override
    public DatabaseNode database() {
        return database;
    }

    /**
     * A service container's environment: where the database and broker are inside the network (the variables
     * of the starters' defaults), the suite's Spring properties under their exact names, and JVM options.
     */
    private Map<String, String> environmentOf(Service service) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("DB_HOST", ContainerPostgresNode.ALIAS);
        environment.put("DB_PORT", Integer.toString(ContainerPostgresNode.PORT));
        // The service runs as its database's runtime role and migrates as the owner, as under ./stack and compose.
        DatabaseRoles.Access access = roles.get(service);
        environment.put("DB_USER", access.runtime());
        environment.put("DB_PASSWORD", access.runtimePassword());
        environment.put("DB_OWNER_USER", access.owner());
        environment.put("DB_OWNER_PASSWORD", access.ownerPassword());
        if (service.isOurs()) {
            environment.put("RABBITMQ_HOST", ContainerRabbitNode.ALIAS);
            environment.put("RABBITMQ_PORT", Integer.toString(ContainerRabbitNode.AMQP_PORT));
            environment.put("RABBITMQ_USER", service.moduleName());
            environment.put("RABBITMQ_PASSWORD", brokerPasswords.get(service));
        }
        // The simulator is reached by its network alias, its module's name, on its contract port.
        Map<String, Object> settings = new LinkedHashMap<>(Steps.providerSettings(service, "http://"
                + Service.PAYMENT_SIMULATOR.moduleName() + ":" + Service.PAYMENT_SIMULATOR.defaultPort(), providerKey));
        settings.putAll(serviceSettings.apply(service));
        environment.put("SPRING_APPLICATION_JSON", JSON.writeValueAsString(settings));
        // The image's options plus the C1-only JIT the processes driver uses too: six JVMs start on two cores.
        environment.put("JAVA_OPTS", "-XX:MaxRAMPercentage=50 -XX:+UseSerialGC -XX:PerfDataSamplingInterval=1000 "
                + "-XX:+ExitOnOutOfMemoryError "
                + "-XX:TieredStopAtLevel=1");
        return environment;
    }

    /** Container and network names of this run: {@code e2e-<run id>-}. */
    private String prefix() {
        return "e2e-" + runId + "-";
    }

    /**
     * A system property, else an environment variable, else what {@code docker/offline/build-images.sh}
     * wrote to {@code docker/offline/offline.env} (so a machine with the stand-ins built needs nothing
     * exported), else the default.
     */
    private String setting(String name, String fallback) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            value = System.getenv(name);
        }
        if (value == null || value.isBlank()) {
            value = offlineImages().get(name);
        }
        return value == null || value.isBlank() ? fallback : value;
    }

    /** The {@code NAME=value} lines of {@code docker/offline/offline.env}; empty when it was never written. */
    private Map<String, String> offlineImages() {
        Path file = paths.repositoryRoot().resolve("docker").resolve("offline").resolve("offline.env");
        if (!Files.isRegularFile(file)) {
            return Map.of();
        }
        try {
            Map<String, String> values = new LinkedHashMap<>();
            for (String line : Files.readAllLines(file)) {
                int equals = line.indexOf('=');
                if (!line.startsWith("#") && equals > 0) {
                    values.put(line.substring(0, equals).trim(), line.substring(equals + 1).trim());
                }
            }
            return values;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (ContainerServiceNode node : nodes) {
            Steps.quietly(node::removeContainer);
        }
        if (broker != null) {
            Steps.quietly(broker::close);
        }
        if (database != null) {
            Steps.quietly(database::close);
        }
        if (network != null) {
            Steps.quietly(network::close);
        }
        if (docker != null) {
            // Whatever a failed start created before its node knew of it.
            Steps.quietly(docker::removeRun);
        }
        if (Thread.currentThread() != shutdownHook) {
            Steps.quietly(() -> Runtime.getRuntime().removeShutdownHook(shutdownHook));
        }
    }
}
