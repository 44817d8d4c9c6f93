package com.example.e2e.bench;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.stream.Stream;

import com.example.e2e.topology.DatabaseNode;
import com.example.e2e.topology.Service;

/** JDBC to the topology's databases, for the phases that read or write them directly. */
final class Sql {

    private Sql() {
    }

    static Connection connect(DatabaseNode database, String name) throws SQLException {
        return DriverManager.getConnection(database.jdbcUrl(name), database.user(), database.password());
    }

    static Connection connect(DatabaseNode database, Service service) throws SQLException {
        return connect(database, service.database());
    }

    /**
     * A connection to the {@code postgres} database, for reading PostgreSQL's statistics of the service databases
     * without counting in any of them.
     */
    static Connection connectToMaintenance(DatabaseNode database) throws SQLException {
        return connect(database, "postgres");
    }

    /** The service databases' names, in {@link Service} order, as an array parameter of {@code connection}. */
    static Array serviceDatabases(Connection connection) throws SQLException {
        return connection.createArrayOf("text", Stream.of(Service.ours()).map(Service::database).toArray());
    }

    /** The single number a {@code select count(*)} query answers. */
    static long count(Connection connection, String sql) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql); ResultSet rows = query.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
