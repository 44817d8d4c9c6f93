package com.example.e2e.topology;

import java.util.Arrays;

/**
 * The processes of the system as docs/contract.md names them: the executable jar's module, the database each owns,
 * and the port it uses in a normal deployment (the harness gives every instance a free port instead). Five are our
 * services (JWT-protected APIs, an outbox, an inbox, a broker user); the payment simulator stands in for an external
 * provider: a process with a database of its own, reached over HTTP by payment-service only.
 */
public enum Service {

    ORDER("order-service", "orders", 8081, true),
    INVENTORY("inventory-service", "inventory", 8082, true),
    COUPON("coupon-service", "coupons", 8083, true),
    RISK("risk-service", "risk", 8084, true),
    /** Before payment-service: the harness starts instances in this order, and payment-service is told its URL. */
    PAYMENT_SIMULATOR("payment-simulator", "payment_simulator", 8090, false),
    PAYMENT("payment-service", "payments", 8085, true);

    private static final Service[] OURS = Arrays.stream(values()).filter(Service::isOurs).toArray(Service[]::new);

    private final String moduleName;
    private final String database;
    private final int defaultPort;
    private final boolean ours;

    Service(String moduleName, String database, int defaultPort, boolean ours) {
        this.moduleName = moduleName;
        this.database = database;
        this.defaultPort = defaultPort;
        this.ours = ours;
    }

    /** Our services: every process but the provider's stand-in, in declaration order. */
    public static Service[] ours() {
        return OURS.clone();
    }

    /** The Maven module and jar name, also the Spring application name and the consumer group. */
    public String moduleName() {
        return moduleName;
    }

    public String database() {
        return database;
    }

    public int defaultPort() {
        return defaultPort;
    }

    /** One of our services, not the stand-in for the external payment provider. */
    public boolean isOurs() {
        return ours;
    }

    @Override
    public String toString() {
        return moduleName;
    }
}
