package com.example.service.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** What the provisioner refuses before it connects anywhere, each with a one-line reason and exit code 1. */
class DatabaseProvisionerTests {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void withoutDatabasesItSaysWhatToName() {
        assertThat(run(List.of(), Map.of())).isEqualTo(1);
        assertThat(errors()).contains("name the databases to provision");
    }

    @Test
    void aMissingPasswordIsNamedAndNothingIsProvisioned() {
        assertThat(run(List.of("orders", "risk"), Map.of("ORDERS_OWNER_PASSWORD", "o", "ORDERS_APP_PASSWORD", "a",
                "RISK_OWNER_PASSWORD", "o", "DB_PORT", "1"))).isEqualTo(1);
        assertThat(errors()).isEqualTo("databases: RISK_APP_PASSWORD is not set\n");
    }

    @Test
    void unusualNamesAndBadTimeoutsAreRefused() {
        assertThat(run(List.of("orders;drop"), Map.of("ORDERS;DROP_OWNER_PASSWORD", "o",
                "ORDERS;DROP_APP_PASSWORD", "a"))).isEqualTo(1);
        assertThat(errors()).contains("refusing unusual database or role name");
        err.reset();
        assertThat(run(List.of("orders"), Map.of("DB_STATEMENT_TIMEOUT", "soon"))).isEqualTo(1);
        assertThat(errors()).contains("DB_STATEMENT_TIMEOUT is not a duration: soon");
    }

    @Test
    void theAccessNeverShowsItsPasswords() {
        DatabaseRoles.Access access = DatabaseRoles.Access.of("orders", "owner-secret", "app-secret",
                java.time.Duration.ofSeconds(10));
        assertThat(access.owner()).isEqualTo("orders_owner");
        assertThat(access.runtime()).isEqualTo("orders_app");
        assertThat(access.toString()).doesNotContain("secret");
    }

    private int run(List<String> databases, Map<String, String> environment) {
        return DatabaseProvisioner.run(databases, environment,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
