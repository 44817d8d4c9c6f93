package com.example.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.example.service.autoconfigure.ServiceProperties;

/**
 * What every service must show once started: its migrations ran against the real database it was
 * given, its database sessions carry the statement and lock timeouts, and its health (with PostgreSQL and
 * RabbitMQ) is UP. A service test class extends this
 * with {@code @SpringBootTest(webEnvironment = RANDOM_PORT)} and {@link FreshInfrastructure}.
 */
public abstract class ServiceStartupContract {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Value("${management.server.address}")
    String managementAddress;

    @Value("${test.database.jdbc-url}")
    String jdbcUrl;

    @Value("${spring.flyway.user}")
    String user;

    @Value("${spring.flyway.password:}")
    String password;

    @Autowired
    DatabaseClient db;

    @Autowired
    ServiceProperties service;

    /** Tables the service's own migrations create, besides the shared outbox and processed_events. */
    protected abstract List<String> ownTables();

    /** The service's own endpoints that only operators (scope {@code admin}) may call, besides the shared ones. */
    protected abstract List<AuthorizationMatrix.Endpoint> operatorEndpoints();

    /**
     * The contract's authorisation matrix for operator endpoints: no token, an expired one, one signed by another key
     * or without an expiry are 401; a customer's token or one without scopes 403; an operator passes.
     */
    @Test
    void operatorEndpointsRefuseEveryoneButOperators() {
        List<AuthorizationMatrix.Endpoint> endpoints = new ArrayList<>(AuthorizationMatrix.SHARED_OPERATOR_ENDPOINTS);
        endpoints.addAll(operatorEndpoints());
        new AuthorizationMatrix(port).assertOperatorsOnly(endpoints);
    }

    @Test
    void migrationsRanAgainstTheFreshDatabase() throws SQLException {
        List<String> expected = new ArrayList<>(List.of("outbox_events", "processed_events"));
        expected.addAll(ownTables());

        assertThat(query("select table_name from information_schema.tables where table_schema = 'public'"))
                .containsAll(expected);
        assertThat(query("select success::text from flyway_schema_history where version is not null"))
                .isNotEmpty()
                .containsOnly("true");
    }

    /** On the service's own sessions (its DatabaseClient), not on Flyway's (JDBC, the server's defaults). */
    @Test
    void theServiceSessionsCarryTheStatementAndLockTimeouts() throws SQLException {
        assertThat(setting("statement_timeout")).isEqualTo(service.database().statementTimeout().toMillis());
        assertThat(setting("lock_timeout")).isEqualTo(service.database().lockTimeout().toMillis());
        assertThat(setting("idle_in_transaction_session_timeout"))
                .isEqualTo(service.database().idleInTransactionTimeout().toMillis());
        assertThat(query("select setting from pg_settings where name = 'statement_timeout'"))
                .doesNotContain(Long.toString(service.database().statementTimeout().toMillis()));
    }

    /** One plan per statement and session, also for statements with an array parameter (ServiceProperties). */
    @Test
    void theServiceSessionsPlanEachStatementOnce() {
        assertThat(text("plan_cache_mode")).isEqualTo("force_generic_plan")
                .isEqualTo(service.database().planCacheMode());
    }

    @Test
    void healthIsUpWithDatabaseAndBroker() {
        // The first scrape registers the meters of a busy machine's whole run so far: more than the default 5 s is fine.
        WebTestClient client = WebTestClient.bindToServer().baseUrl("http://localhost:" + managementPort)
                .responseTimeout(Duration.ofSeconds(30)).build();

        exchange(client, "/actuator/health")
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.status").isEqualTo("UP")
                .jsonPath("$.components.r2dbc.status").isEqualTo("UP")
                .jsonPath("$.components.rabbit.status").isEqualTo("UP");
        exchange(client, "/actuator/health/readiness").expectStatus().isOk();
        exchange(client, "/actuator/health/messaging")
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.components.rabbit.status").isEqualTo("UP")
                .jsonPath("$.components.deadLetters").exists()
                .jsonPath("$.components.outbox").exists();
        exchange(client, "/actuator/health/liveness").expectStatus().isOk();
        exchange(client, "/actuator/prometheus").expectStatus().isOk();
        exchange(client, "/actuator/info").expectStatus().isOk();
    }

    /** A GET on the management port; one without an answer in time is tried once more ({@link ThreadDumps}). */
    private static WebTestClient.ResponseSpec exchange(WebTestClient client, String path) {
        return ThreadDumps.retryOnceIfUnanswered("GET " + path + " on the management port",
                () -> client.get().uri(path).exchange());
    }

    /**
     * The probes' own paths on the API port (for load balancers and orchestrators), without authentication; the rest
     * of the actuator only on the management port (not even an operator's token finds it on the API port), which
     * listens on the loopback interface unless told otherwise.
     */
    @Test
    void theApiPortHasTheProbesAndNothingElseOfTheActuator() {
        WebTestClient api = WebTestClient.bindToServer().baseUrl("http://localhost:" + port).build();
        WebTestClient operator = WebTestClient.bindToServer().baseUrl("http://localhost:" + port)
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + TestTokens.admin()).build();

        api.get().uri("/readyz").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP").jsonPath("$.components").doesNotExist();
        api.get().uri("/livez").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP").jsonPath("$.components").doesNotExist();
        for (String path : List.of("/actuator/health", "/actuator/prometheus", "/actuator/info", "/actuator")) {
            operator.get().uri(path).exchange().expectStatus().isNotFound();
        }
        assertThat(managementPort).isNotEqualTo(port);
        assertThat(managementAddress).isEqualTo("127.0.0.1");
    }

    /** The setting in milliseconds, as the service's pooled sessions see it. */
    private long setting(String name) {
        return Long.parseLong(text(name));
    }

    private String text(String name) {
        return db.sql("select setting from pg_settings where name = :name").bind("name", name)
                .map(row -> row.get("setting", String.class)).one().block();
    }

    private List<String> query(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }
}
