package com.example.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.example.service.database.DatabaseRoles;

/**
 * Least privilege in PostgreSQL, per service: its database provisioned with an owner and a runtime role
 * ({@link DatabaseRoles}), its own migrations run as the owner, and then the runtime role can read and write every
 * table of the service, but is no superuser, cannot create a table (or a schema, a database, a role) and cannot even
 * connect to another service's database. A service's test class extends this and names its migrations' tables.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class DatabaseRolesContract {

    private static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(10);
    private static final String INSUFFICIENT_PRIVILEGE = "42501";

    private TestInfrastructure.Postgres postgres;
    private DatabaseRoles.Access service;
    private DatabaseRoles.Access other;

    /** Tables the service's own migrations create, besides the shared outbox and processed_events. */
    protected abstract List<String> ownTables();

    @BeforeAll
    void provisionAndMigrate() {
        postgres = TestInfrastructure.get().postgres();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        service = DatabaseRoles.Access.of("roles_" + suffix, "owner-" + suffix, "app-" + suffix, STATEMENT_TIMEOUT);
        other = DatabaseRoles.Access.of("roles_other_" + suffix, "owner-" + suffix, "app-" + suffix,
                STATEMENT_TIMEOUT);
        for (DatabaseRoles.Access access : List.of(service, other)) {
            DatabaseRoles.provision(postgres.jdbcUrl("postgres"), postgres.user(), postgres.password(), access);
        }
        Flyway.configure()
                .dataSource(postgres.jdbcUrl(service.database()), service.owner(), service.ownerPassword())
                .locations("classpath:db/shared-migration", "classpath:db/migration")
                .outOfOrder(true)
                .load()
                .migrate();
        // Provisioning again (a rotation) changes nothing of the above.
        DatabaseRoles.provision(postgres.jdbcUrl("postgres"), postgres.user(), postgres.password(), service);
    }

    @AfterAll
    void dropDatabasesAndRoles() throws SQLException {
        try (Connection admin = DriverManager.getConnection(postgres.jdbcUrl("postgres"), postgres.user(),
                postgres.password()); Statement statement = admin.createStatement()) {
            for (DatabaseRoles.Access access : List.of(service, other)) {
                statement.execute("drop database if exists " + access.database() + " with (force)");
                statement.execute("drop role if exists " + access.runtime());
                statement.execute("drop role if exists " + access.owner());
            }
        }
    }

    @Test
    void theRuntimeRoleReadsAndWritesEveryTableOfTheService() throws SQLException {
        List<String> tables = new ArrayList<>(List.of("outbox_events", "processed_events"));
        tables.addAll(ownTables());
        try (Connection runtime = runtime(service.database())) {
            assertThat(strings(runtime, "select table_name from information_schema.tables "
                    + "where table_schema = 'public' and table_type = 'BASE TABLE'")).containsAll(tables);
            for (String table : tables) {
                assertThat(strings(runtime, "select has_table_privilege(current_user, 'public." + table
                        + "', 'SELECT, INSERT, UPDATE, DELETE')::text"))
                        .as("DML on %s", table).containsExactly("true");
                strings(runtime, "select count(*) from " + table);
            }
            assertThat(strings(runtime, "select owner from (select tableowner as owner from pg_tables "
                    + "where schemaname = 'public') owners group by owner")).containsExactly(service.owner());
        }
    }

    @Test
    void theRuntimeRoleIsNoSuperuserAndCarriesItsStatementTimeout() throws SQLException {
        try (Connection runtime = runtime(service.database())) {
            assertThat(strings(runtime, "select concat_ws(',', rolsuper, rolcreatedb, rolcreaterole, rolreplication, "
                    + "rolbypassrls) from pg_roles where rolname = current_user"))
                    .containsExactly("f,f,f,f,f");
            assertThat(strings(runtime, "show statement_timeout")).containsExactly("10s");
        }
    }

    @Test
    void theRuntimeRoleCannotChangeTheSchema() throws SQLException {
        try (Connection runtime = runtime(service.database())) {
            assertRefused(runtime, "create table intruder (id int)");
            assertRefused(runtime, "create schema intruder");
            assertRefused(runtime, "alter table outbox_events add column intruder int");
            assertRefused(runtime, "drop table processed_events");
            assertRefused(runtime, "create database intruder");
            assertRefused(runtime, "create role intruder");
        }
    }

    @Test
    void theRuntimeRoleCannotConnectToAnotherServicesDatabase() {
        assertThatThrownBy(() -> runtime(other.database()).close())
                .isInstanceOfSatisfying(SQLException.class, refused -> assertThat(refused.getSQLState())
                        .isEqualTo(INSUFFICIENT_PRIVILEGE))
                .hasMessageContaining("permission denied for database");
        assertThatCode(() -> DriverManager.getConnection(postgres.jdbcUrl(other.database()), other.runtime(),
                other.runtimePassword()).close()).as("the other database's own runtime role can")
                .doesNotThrowAnyException();
    }

    private Connection runtime(String database) throws SQLException {
        return DriverManager.getConnection(postgres.jdbcUrl(database), service.runtime(), service.runtimePassword());
    }

    private static void assertRefused(Connection connection, String sql) {
        assertThatThrownBy(() -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
            }
        }).as(sql).isInstanceOfSatisfying(SQLException.class,
                refused -> assertThat(refused.getSQLState()).as(refused.getMessage()).isEqualTo(INSUFFICIENT_PRIVILEGE));
    }

    private static List<String> strings(Connection connection, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }
}
