package com.example.service.database;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Least privilege in PostgreSQL for one service database: an <b>owner</b> role that owns the database and runs the
 * migrations, and a <b>runtime</b> role the running service connects as, which can read and write the tables the
 * owner creates and nothing else: not a superuser, no CREATEDB or CREATEROLE, no CREATE in any schema (so no DDL),
 * and no CONNECT on any other database (CONNECT is revoked from PUBLIC on each provisioned database). The runtime role
 * carries its own {@code statement_timeout} as a safety net under the one the service sets per session.
 *
 * <p>Idempotent, and the way to rotate passwords: roles that exist get the given password (and attributes) again. Run
 * by an administrator (a superuser, or a role with CREATEROLE and CREATEDB), never by a service: {@code ./stack},
 * compose's one-shot {@code db-init} and the test harnesses.
 *
 * <p>The runtime role's rights on tables come from default privileges of the owner role: every table or sequence the
 * owner creates later (a new migration) is granted to the runtime role at once. Tables that exist already are granted
 * too (a database migrated before it was provisioned, e.g. as {@code postgres}), and handed to the owner, so that its
 * migrations can change them.
 */
public final class DatabaseRoles {

    private static final Logger log = LoggerFactory.getLogger(DatabaseRoles.class);
    private static final Pattern SAFE_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final String DUPLICATE_OBJECT = "42710";
    private static final String DUPLICATE_DATABASE = "42P04";

    private DatabaseRoles() {
    }

    /**
     * A service database and its two roles.
     *
     * @param statementTimeout the runtime role's {@code statement_timeout}
     */
    public record Access(String database, String owner, String ownerPassword, String runtime, String runtimePassword,
            Duration statementTimeout) {

        public Access {
            for (String name : new String[] { database, owner, runtime }) {
                if (name == null || !SAFE_NAME.matcher(name).matches()) {
                    throw new IllegalArgumentException("refusing unusual database or role name '" + name
                            + "' (lower-case letters, digits and _ only)");
                }
            }
            if (owner.equals(runtime)) {
                throw new IllegalArgumentException("the owner and the runtime role must differ (" + owner + ")");
            }
            if (isBlank(ownerPassword) || isBlank(runtimePassword)) {
                throw new IllegalArgumentException("the roles of database " + database + " need passwords");
            }
            if (statementTimeout == null || statementTimeout.toMillis() < 1) {
                throw new IllegalArgumentException("the runtime role's statement timeout must be at least 1ms");
            }
        }

        /** The roles this project uses for a database: {@code <database>_owner} and {@code <database>_app}. */
        public static Access of(String database, String ownerPassword, String runtimePassword,
                Duration statementTimeout) {
            return new Access(database, database + "_owner", ownerPassword, database + "_app", runtimePassword,
                    statementTimeout);
        }

        @Override
        public String toString() {
            // No passwords in logs.
            return "Access[database=" + database + ", owner=" + owner + ", runtime=" + runtime + "]";
        }
    }

    /**
     * Creates or updates both roles and the database, and grants what the runtime role needs.
     *
     * @param serverJdbcUrl {@code jdbc:postgresql://host:port[/anything]}: the server, reached through its
     *                      {@code postgres} maintenance database and then the service database itself
     * @param adminUser     a superuser, or a role with CREATEROLE and CREATEDB
     */
    public static void provision(String serverJdbcUrl, String adminUser, String adminPassword, Access access) {
        String server = serverOf(serverJdbcUrl);
        try (Connection admin = DriverManager.getConnection(server + "/postgres", adminUser, adminPassword)) {
            role(admin, access.owner(), access.ownerPassword());
            role(admin, access.runtime(), access.runtimePassword());
            execute(admin, "alter role " + access.runtime() + " set statement_timeout = '"
                    + access.statementTimeout().toMillis() + "ms'");
            database(admin, access.database(), access.owner());
            execute(admin, "revoke all on database " + access.database() + " from public");
            execute(admin, "grant connect, temporary on database " + access.database() + " to " + access.owner());
            execute(admin, "grant connect on database " + access.database() + " to " + access.runtime());
        } catch (SQLException e) {
            throw new IllegalStateException("could not provision " + access + " at " + server + ": " + e.getMessage(),
                    e);
        }
        try (Connection admin = DriverManager.getConnection(server + "/" + access.database(), adminUser,
                adminPassword)) {
            String owner = access.owner();
            String runtime = access.runtime();
            execute(admin, "alter schema public owner to " + owner);
            adoptTables(admin, owner);
            execute(admin, "revoke create on schema public from public");
            execute(admin, "grant usage on schema public to " + runtime);
            execute(admin, "alter default privileges for role " + owner + " in schema public "
                    + "grant select, insert, update, delete on tables to " + runtime);
            execute(admin, "alter default privileges for role " + owner + " in schema public "
                    + "grant usage, select, update on sequences to " + runtime);
            execute(admin, "grant select, insert, update, delete on all tables in schema public to " + runtime);
            execute(admin, "grant usage, select, update on all sequences in schema public to " + runtime);
        } catch (SQLException e) {
            throw new IllegalStateException("could not grant the runtime role of " + access + ": " + e.getMessage(), e);
        }
        log.info("Provisioned {}", access);
    }

    /**
     * Hands the tables (and their sequences) of a database migrated before it was provisioned, as another role, to the
     * owner, which must be able to migrate them further. The project's migrations create tables and sequences only.
     */
    private static void adoptTables(Connection admin, String owner) throws SQLException {
        for (String kinds : new String[] { "'r', 'p'", "'S'" }) {
            List<String> foreign = new ArrayList<>();
            try (PreparedStatement statement = admin.prepareStatement("select quote_ident(c.relname) from pg_class c "
                    + "join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ("
                    + kinds + ") and pg_get_userbyid(c.relowner) <> ?")) {
                statement.setString(1, owner);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        foreign.add(rows.getString(1));
                    }
                }
            }
            for (String relation : foreign) {
                // A table takes its identity sequences along, so sequences come second and only the loose ones.
                execute(admin, ("'S'".equals(kinds) ? "alter sequence public." : "alter table public.") + relation
                        + " owner to " + owner);
                log.info("Handed {} to {}", relation, owner);
            }
        }
    }

    private static void role(Connection admin, String name, String password) throws SQLException {
        String attributes = " login nosuperuser nocreatedb nocreaterole noreplication nobypassrls inherit password "
                + literal(admin, password);
        if (exists(admin, "select 1 from pg_roles where rolname = ?", name)) {
            execute(admin, "alter role " + name + " with" + attributes);
            return;
        }
        try {
            execute(admin, "create role " + name + " with" + attributes);
        } catch (SQLException e) {
            if (!DUPLICATE_OBJECT.equals(e.getSQLState())) {
                throw e;
            }
            execute(admin, "alter role " + name + " with" + attributes);
        }
    }

    private static void database(Connection admin, String name, String owner) throws SQLException {
        if (!exists(admin, "select 1 from pg_database where datname = ?", name)) {
            try {
                execute(admin, "create database " + name + " owner " + owner);
                log.info("Created database {} owned by {}", name, owner);
                return;
            } catch (SQLException e) {
                if (!DUPLICATE_DATABASE.equals(e.getSQLState())) {
                    throw e;
                }
            }
        }
        execute(admin, "alter database " + name + " owner to " + owner);
    }

    private static boolean exists(Connection connection, String query, String name) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(query)) {
            statement.setString(1, name);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next();
            }
        }
    }

    /** A string literal quoted by the server itself (passwords cannot be bind parameters of DDL). */
    private static String literal(Connection connection, String value) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("select quote_literal(?)")) {
            statement.setString(1, value);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static String serverOf(String jdbcUrl) {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql://")) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + jdbcUrl);
        }
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        return "jdbc:postgresql://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
