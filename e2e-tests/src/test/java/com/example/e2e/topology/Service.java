package com.example.e2e.topology;

/**
 * The four services as docs/contract.md names them: the executable jar's module, the database each owns,
 * and the port it uses in a normal deployment (the harness gives every instance a free port instead).
 */
public enum Service {

    ORDER("order-service", "orders", 8081),
    INVENTORY("inventory-service", "inventory", 8082),
    COUPON("coupon-service", "coupons", 8083),
    RISK("risk-service", "risk", 8084);

    private final String moduleName;
    private final String database;
    private final int defaultPort;

    Service(String moduleName, String database, int defaultPort) {
        this.moduleName = moduleName;
        this.database = database;
        this.defaultPort = defaultPort;
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

    @Override
    public String toString() {
        return moduleName;
    }
}
