package com.example.service.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the service starter ({@code service.*}). The connection URLs of R2DBC and Flyway are built from
 * {@code service.database.host}, {@code port} and {@code name} in the shared defaults; the standard Spring Boot
 * properties ({@code spring.r2dbc.url}, {@code spring.flyway.url}) still override them.
 *
 * @param database the service's own PostgreSQL database
 * @param api      how the service's HTTP API describes itself ({@code GET /v3/api-docs})
 */
@ConfigurationProperties("service")
public record ServiceProperties(@DefaultValue Database database, @DefaultValue Api api) {

    /**
     * @param host           PostgreSQL host
     * @param port           PostgreSQL port
     * @param name           the database this service owns; each service sets its own
     * @param createIfMissing create the database at start-up when it does not exist yet, before Flyway migrates it
     */
    public record Database(@DefaultValue("localhost") String host, @DefaultValue("5432") int port, String name,
            @DefaultValue("true") boolean createIfMissing) {

        public Database {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("service.database.port must be between 1 and 65535, was " + port);
            }
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("service.database.host must not be empty");
            }
        }
    }

    /**
     * @param title       the API's name, e.g. {@code Orders API}; the application's name when not set
     * @param description what the API is for, in a few sentences
     * @param version     the API's version: the service's build version
     */
    public record Api(String title, @DefaultValue("") String description, @DefaultValue("0") String version) {
    }
}
