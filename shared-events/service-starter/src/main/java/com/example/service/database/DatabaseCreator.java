package com.example.service.database;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates a PostgreSQL database when it does not exist yet, connecting to the server's {@code postgres}
 * maintenance database. Safe to race: a concurrent creator that wins is not an error.
 */
public final class DatabaseCreator {

    private static final Logger log = LoggerFactory.getLogger(DatabaseCreator.class);
    private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final String DUPLICATE_DATABASE = "42P04";

    private DatabaseCreator() {
    }

    /**
     * @param jdbcUrl a {@code jdbc:postgresql://host:port/database[?params]} URL
     * @return true when this call created the database
     */
    public static boolean ensureExists(String jdbcUrl, String user, String password) {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        String database = uri.getPath().substring(1);
        if (!SAFE_NAME.matcher(database).matches()) {
            throw new IllegalArgumentException("refusing to create database with unusual name '" + database + "'");
        }
        String maintenanceUrl = "jdbc:postgresql://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "")
                + "/postgres";
        try (Connection connection = DriverManager.getConnection(maintenanceUrl, user, password)) {
            try (PreparedStatement exists = connection.prepareStatement("select 1 from pg_database where datname = ?")) {
                exists.setString(1, database);
                try (ResultSet rows = exists.executeQuery()) {
                    if (rows.next()) {
                        return false;
                    }
                }
            }
            try (Statement create = connection.createStatement()) {
                create.execute("create database \"" + database + "\"");
                log.info("Created database {}", database);
                return true;
            } catch (SQLException e) {
                if (DUPLICATE_DATABASE.equals(e.getSQLState())) {
                    return false;
                }
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database '" + database + "' at " + maintenanceUrl
                    + ": " + e.getMessage(), e);
        }
    }
}
