package com.example.e2e.topology;

import java.util.List;
import java.util.Set;

/**
 * The whole system under test: a database, a broker and instances of the services (and of the payment provider's stand-in). A driver
 * ({@link ProcessTopology} for child processes, {@link ContainerTopology} for Docker containers) decides
 * how they run; scenarios, the nemesis and the checker only see this interface. Closing it stops
 * everything it started.
 */
public interface Topology extends AutoCloseable {

    /**
     * Starts the database and the broker, declares the broker topology of the event contract (as {@code ./stack}
     * and compose do before any service runs), then starts one instance of every service and waits until all are
     * ready.
     */
    default void start() {
        start(Set.of());
    }

    /**
     * Like {@link #start()}, except that the held-back services get a first instance that is created but not
     * started: a scenario starts it, as a service deployed for the first time into a running system.
     */
    void start(Set<Service> heldBack);

    /** Every service instance, in creation order, running or not. */
    List<ServiceNode> nodes();

    /** The first instance of a service. */
    default ServiceNode node(Service service) {
        return nodes().stream().filter(node -> node.service() == service).findFirst()
                .orElseThrow(() -> new IllegalStateException("no instance of " + service));
    }

    /** The instances of a service that run now. */
    default List<ServiceNode> running(Service service) {
        return nodes().stream().filter(node -> node.service() == service && node.isRunning()).toList();
    }

    /** A further instance of a service, created but not started (its own port and log). */
    ServiceNode addInstance(Service service);

    BrokerNode broker();

    DatabaseNode database();

    /** Stops everything; never throws. */
    @Override
    void close();
}
