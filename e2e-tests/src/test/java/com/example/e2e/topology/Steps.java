package com.example.e2e.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.messaging.topology.BrokerAddress;
import com.example.messaging.topology.BrokerUsers;
import com.example.service.database.DatabaseRoles;
import com.example.messaging.topology.TopologyProvisioner;

/** What both drivers do the same way while starting and stopping a topology. */
final class Steps {

    /** The runtime roles' statement_timeout, as the provisioner of ./stack and compose sets it by default. */
    private static final Duration RUNTIME_STATEMENT_TIMEOUT = Duration.ofSeconds(10);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Logger log = LoggerFactory.getLogger(Steps.class);

    private Steps() {
    }

    /** Runs blocking steps on threads of their own (not the common pool, which may have one thread) and waits for all. */
    static void inParallel(List<Runnable> steps) {
        ExecutorService threads = Executors.newFixedThreadPool(steps.size());
        try {
            CompletableFuture.allOf(steps.stream().map(step -> CompletableFuture.runAsync(step, threads))
                    .toArray(CompletableFuture[]::new)).join();
        } finally {
            threads.shutdown();
        }
    }

    /** A cleanup step that must not keep the next one from running. */
    static void quietly(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            log.warn("Cleanup step failed: {}", e.toString());
        }
    }

    /** Empties the log directory: node names repeat from run to run, and a log must hold this run's story only. */
    static void freshLogDirectory(Path logs) {
        try {
            if (Files.exists(logs)) {
                try (Stream<Path> old = Files.walk(logs)) {
                    old.sorted(Comparator.reverseOrder()).filter(path -> !path.equals(logs))
                            .forEach(path -> path.toFile().delete());
                }
            }
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Declares every exchange, subscriber queue, dead-letter queue and binding of the event contract on the broker
     * (the messaging starter's provisioner, as {@code ./stack topology} runs it), so that no service's queue depends
     * on which service happened to start first, and every service's broker user with a password of its own: the
     * services under test connect with no more rights on the broker than in production.
     *
     * @return each service's broker password (the user is named after the service)
     */
    static Map<Service, String> provisionTopology(BrokerNode broker) {
        Map<Service, String> passwords = new EnumMap<>(Service.class);
        Map<String, String> environment = new HashMap<>();
        environment.put("RABBITMQ_MANAGEMENT_URL", broker.managementUri().toString());
        for (Service service : Service.ours()) {
            passwords.put(service, secret());
            environment.put(BrokerUsers.passwordVariable(service.moduleName()), passwords.get(service));
        }
        BrokerAddress admin = new BrokerAddress("localhost", broker.amqpPort(), "/", broker.user(), broker.password());
        List<String> queues = TopologyProvisioner.provision(admin, environment);
        List<String> users = BrokerUsers.provision(admin, environment);
        log.info("Broker topology declared: {} queues, {} broker users", queues.size(), users.size());
        return passwords;
    }

    /**
     * Every service's database with its owner role (migrations) and runtime role (the running service: rows of its own
     * tables only), with passwords of their own, as {@code ./stack} and compose provision them: the services under
     * test run with no more rights than in production.
     */
    static Map<Service, DatabaseRoles.Access> provisionDatabases(DatabaseNode database) {
        Map<Service, DatabaseRoles.Access> roles = new EnumMap<>(Service.class);
        for (Service service : Service.values()) {
            DatabaseRoles.Access access = DatabaseRoles.Access.of(service.database(), secret(), secret(),
                    RUNTIME_STATEMENT_TIMEOUT);
            DatabaseRoles.provision(database.jdbcUrl(service.database()), database.user(), database.password(), access);
            roles.put(service, access);
        }
        return roles;
    }

    /**
     * What the payment provider's two sides are told: payment-service where the provider is and its API key, the
     * simulator the same key; nothing for the other services. Both sides are also made quicker to give up than in
     * production, so that an unknown outcome (an answer the simulator withholds, a payment-service that halted between
     * charge and record) is reconciled within seconds rather than half a minute: payment-service waits 1.5 s for an
     * answer and retries once, which leases a claimed payment for 12 s instead of 29 s; the simulator holds a withheld
     * answer 3 s, longer than that wait.
     */
    static Map<String, Object> providerSettings(Service service, String providerUrl, String apiKey) {
        return switch (service) {
            case PAYMENT -> Map.of("payment.provider.url", providerUrl, "payment.provider.api-key", apiKey,
                    "payment.provider.timeout", "1500ms", "payment.provider.connect-timeout", "500ms",
                    "payment.provider.retries", "1", "payment.provider.retry-max-backoff", "500ms");
            case PAYMENT_SIMULATOR -> Map.of("simulator.api-key", apiKey, "simulator.hold-after-charge", "3s");
            default -> Map.of();
        };
    }

    static String secret() {
        byte[] bytes = new byte[18];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * Creates one instance of every service and starts those not held back; waits until the started ones are ready.
     */
    static List<ServiceNode> startFirstInstances(Function<Service, ServiceNode> addInstance, Duration readyTimeout,
            Set<Service> heldBack) {
        List<ServiceNode> started = new ArrayList<>();
        for (Service service : Service.values()) {
            ServiceNode node = addInstance.apply(service);
            if (!heldBack.contains(service)) {
                node.start("");
                started.add(node);
            }
        }
        inParallel(started.stream().<Runnable>map(node -> () -> node.awaitReady(readyTimeout)).toList());
        return started;
    }
}
