package com.example.messaging.topology;

import java.util.Map;

/**
 * Where the provisioner declares the topology, and as whom: a user allowed to configure every queue of the vhost
 * (an administrator), since it declares every service's queues.
 */
public record BrokerAddress(String host, int port, String virtualHost, String user, String password) {

    /**
     * From {@code RABBITMQ_HOST} (localhost), {@code RABBITMQ_PORT} (5672), {@code RABBITMQ_VHOST} (/) and
     * {@code RABBITMQ_ADMIN_USER}/{@code RABBITMQ_ADMIN_PASSWORD}, else {@code RABBITMQ_USER}/{@code RABBITMQ_PASSWORD}
     * (the variables the services use), else guest/guest.
     */
    public static BrokerAddress fromEnvironment(Map<String, String> environment) {
        String port = value(environment, "RABBITMQ_PORT", "5672");
        if (!port.matches("[0-9]{1,5}")) {
            throw new IllegalArgumentException("RABBITMQ_PORT is not a port number: " + port);
        }
        boolean admin = environment.get("RABBITMQ_ADMIN_USER") != null && !environment.get("RABBITMQ_ADMIN_USER").isBlank();
        return new BrokerAddress(value(environment, "RABBITMQ_HOST", "localhost"), Integer.parseInt(port),
                value(environment, "RABBITMQ_VHOST", "/"),
                admin ? environment.get("RABBITMQ_ADMIN_USER") : value(environment, "RABBITMQ_USER", "guest"),
                admin ? value(environment, "RABBITMQ_ADMIN_PASSWORD", "")
                        : value(environment, "RABBITMQ_PASSWORD", "guest"));
    }

    private static String value(Map<String, String> environment, String name, String fallback) {
        String value = environment.get(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    /** Without the password: this goes to logs and error messages. */
    @Override
    public String toString() {
        return user + "@" + host + ":" + port + " vhost " + virtualHost;
    }
}
