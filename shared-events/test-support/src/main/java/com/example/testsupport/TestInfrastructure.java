package com.example.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.rabbitmq.RabbitMQContainer;
import org.testcontainers.utility.DockerImageName;

import com.example.service.database.DatabaseCreator;

/**
 * Finds the PostgreSQL and RabbitMQ the integration tests run against: the ones on the configured
 * host and ports when they answer (a machine that runs them natively, or CI), otherwise containers
 * started by Testcontainers. Hands out fresh databases and vhosts, and drops them when the JVM exits.
 *
 * <p>Override the defaults with the environment variables {@code TEST_POSTGRES_HOST},
 * {@code TEST_POSTGRES_PORT}, {@code TEST_POSTGRES_USER}, {@code TEST_POSTGRES_PASSWORD},
 * {@code TEST_RABBITMQ_HOST}, {@code TEST_RABBITMQ_PORT}, {@code TEST_RABBITMQ_MANAGEMENT_PORT},
 * {@code TEST_RABBITMQ_USER} and {@code TEST_RABBITMQ_PASSWORD}.
 */
public final class TestInfrastructure {

    private static final Logger log = LoggerFactory.getLogger(TestInfrastructure.class);
    private static TestInfrastructure instance;

    private final Postgres postgres;
    private final Rabbit rabbit;
    private final List<String> databases = new CopyOnWriteArrayList<>();
    private final List<String> vhosts = new CopyOnWriteArrayList<>();
    private final List<String> users = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    /** Where PostgreSQL answers. */
    public record Postgres(String host, int port, String user, String password) {

        public String jdbcUrl(String database) {
            return "jdbc:postgresql://" + host + ":" + port + "/" + database;
        }

        public String r2dbcUrl(String database) {
            return "r2dbc:postgresql://" + host + ":" + port + "/" + database;
        }
    }

    /** Where RabbitMQ answers, with the management API used to create vhosts. */
    public record Rabbit(String host, int port, String managementUrl, String user, String password) {
    }

    private TestInfrastructure(Postgres postgres, Rabbit rabbit) {
        this.postgres = postgres;
        this.rabbit = rabbit;
        Runtime.getRuntime().addShutdownHook(new Thread(this::dropEverythingCreated, "test-infrastructure-cleanup"));
    }

    public static synchronized TestInfrastructure get() {
        if (instance == null) {
            instance = locate();
        }
        return instance;
    }

    public Postgres postgres() {
        return postgres;
    }

    public Rabbit rabbit() {
        return rabbit;
    }

    /** Creates an empty database named {@code prefix_<random>} and returns its name. */
    public String createDatabase(String prefix) {
        String name = (prefix + "_" + shortId()).toLowerCase().replaceAll("[^a-z0-9_]", "_");
        DatabaseCreator.ensureExists(postgres.jdbcUrl(name), postgres.user(), postgres.password());
        databases.add(name);
        return name;
    }

    /** Creates an empty vhost named {@code prefix-<random>}, usable by the configured user, and returns its name. */
    public String createVhost(String prefix) {
        String name = prefix + "-" + shortId();
        management("PUT", "/api/vhosts/" + name, "{}");
        management("PUT", "/api/permissions/" + name + "/" + rabbit.user(),
                "{\"configure\":\".*\",\"write\":\".*\",\"read\":\".*\"}");
        vhosts.add(name);
        return name;
    }

    /**
     * Creates a broker user {@code prefix-<random>} with a random password and the given permission patterns in
     * {@code vhost} only, no tags; deleted when the JVM exits.
     */
    public Rabbit createUser(String prefix, String vhost, String configure, String write, String read) {
        String name = prefix + "-" + shortId();
        String password = UUID.randomUUID().toString();
        users.add(name);
        management("PUT", "/api/users/" + name, "{\"password\":\"" + password + "\",\"tags\":\"\"}");
        management("PUT", "/api/permissions/" + vhost.replace("/", "%2F") + "/" + name, "{\"configure\":"
                + json(configure) + ",\"write\":" + json(write) + ",\"read\":" + json(read) + "}");
        return new Rabbit(rabbit.host(), rabbit.port(), rabbit.managementUrl(), name, password);
    }

    /** Deletes a broker user made by someone else (a provisioner under test) when the JVM exits. */
    public void dropUserAtExit(String user) {
        users.add(user);
    }

    /** The binder setting that has a consumer declare the exchange it consumes from (off in the services). */
    public static final String DECLARE_SOURCE_EXCHANGES = "spring.cloud.stream.rabbit.default.consumer.declare-exchange";

    /** The Spring properties that point a service at the given database and vhost. */
    public Map<String, Object> springProperties(String database, String vhost) {
        Map<String, Object> properties = new LinkedHashMap<>(databaseProperties(postgres, database));
        properties.put("spring.rabbitmq.host", rabbit.host());
        properties.put("spring.rabbitmq.port", rabbit.port());
        properties.put("spring.rabbitmq.username", rabbit.user());
        properties.put("spring.rabbitmq.password", rabbit.password());
        properties.put("spring.rabbitmq.virtual-host", vhost);
        // No topology step runs before a test's service and it connects as the administrator: its binder declares
        // the exchanges it consumes from, as the topology step would (a service's own broker user may not).
        properties.put(DECLARE_SOURCE_EXCHANGES, true);
        properties.put(TestTokens.PROPERTY, TestTokens.publicKeyLocation());
        return properties;
    }

    /** The Spring properties that point a service at a database on the given server. */
    public static Map<String, Object> databaseProperties(Postgres server, String database) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.r2dbc.url", server.r2dbcUrl(database));
        properties.put("spring.r2dbc.username", server.user());
        properties.put("spring.r2dbc.password", server.password());
        properties.put("spring.flyway.url", server.jdbcUrl(database));
        properties.put("spring.flyway.user", server.user());
        properties.put("spring.flyway.password", server.password());
        return properties;
    }

    /**
     * A TCP port nothing listens on right now, for a server the test starts next; from below the kernel's ephemeral
     * range, so that no outgoing connection takes it before that server binds it (see {@link FreePorts}).
     */
    public static int freePort() {
        return FreePorts.take();
    }

    private static String json(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private void dropEverythingCreated() {
        for (String user : users) {
            try {
                management("DELETE", "/api/users/" + user, null);
            } catch (RuntimeException e) {
                log.debug("could not delete broker user {}", user, e);
            }
        }
        for (String vhost : vhosts) {
            try {
                management("DELETE", "/api/vhosts/" + vhost, null);
            } catch (RuntimeException e) {
                log.debug("could not delete vhost {}", vhost, e);
            }
        }
        if (databases.isEmpty()) {
            return;
        }
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.user(),
                postgres.password()); Statement statement = connection.createStatement()) {
            for (String database : databases) {
                statement.execute("drop database if exists \"" + database + "\" with (force)");
            }
        } catch (SQLException e) {
            log.debug("could not drop test databases {}", databases, e);
        }
    }

    private void management(String method, String path, String body) {
        String auth = Base64.getEncoder()
                .encodeToString((rabbit.user() + ":" + rabbit.password()).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create(rabbit.managementUrl() + path))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Basic " + auth)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + ": "
                        + response.body());
            }
        } catch (IOException e) {
            throw new IllegalStateException("RabbitMQ management API at " + rabbit.managementUrl()
                    + " does not answer; enable it with: rabbitmq-plugins enable rabbitmq_management", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static TestInfrastructure locate() {
        String pgHost = env("TEST_POSTGRES_HOST", "localhost");
        int pgPort = Integer.parseInt(env("TEST_POSTGRES_PORT", "5432"));
        String mqHost = env("TEST_RABBITMQ_HOST", "localhost");
        int mqPort = Integer.parseInt(env("TEST_RABBITMQ_PORT", "5672"));
        if (answers(pgHost, pgPort) && answers(mqHost, mqPort)) {
            log.info("Integration tests use PostgreSQL at {}:{} and RabbitMQ at {}:{}", pgHost, pgPort, mqHost, mqPort);
            return new TestInfrastructure(
                    new Postgres(pgHost, pgPort, env("TEST_POSTGRES_USER", "postgres"), env("TEST_POSTGRES_PASSWORD", "")),
                    new Rabbit(mqHost, mqPort,
                            "http://" + mqHost + ":" + env("TEST_RABBITMQ_MANAGEMENT_PORT", "15672"),
                            env("TEST_RABBITMQ_USER", "guest"), env("TEST_RABBITMQ_PASSWORD", "guest")));
        }
        log.info("PostgreSQL or RabbitMQ does not answer locally: starting them with Testcontainers");
        // POSTGRES_IMAGE / RABBITMQ_IMAGE select other images, e.g. the offline stand-ins (docker/offline).
        PostgreSQLContainer pg = new PostgreSQLContainer(DockerImageName.parse(env("POSTGRES_IMAGE", "postgres:15-alpine"))
                .asCompatibleSubstituteFor("postgres"));
        RabbitMQContainer mq = new RabbitMQContainer(
                DockerImageName.parse(env("RABBITMQ_IMAGE", "rabbitmq:3.13-management-alpine"))
                        .asCompatibleSubstituteFor("rabbitmq"));
        pg.start();
        mq.start();
        return new TestInfrastructure(
                new Postgres(pg.getHost(), pg.getMappedPort(5432), pg.getUsername(), pg.getPassword()),
                new Rabbit(mq.getHost(), mq.getAmqpPort(), mq.getHttpUrl(), mq.getAdminUsername(),
                        mq.getAdminPassword()));
    }

    private static boolean answers(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static String shortId() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
