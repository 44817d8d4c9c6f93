package com.example.e2e.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;

import com.example.e2e.topology.DatabaseNode;
import com.example.e2e.topology.Service;

/**
 * Transactions of each service database as PostgreSQL counts them ({@code pg_stat_database}: {@code xact_commit +
 * xact_rollback}), read over a connection to the {@code postgres} database, so that reading counts in none of them.
 *
 * <p>The counts lag: since PostgreSQL 15 a backend adds its own to the shared ones at most once a second, and one
 * that then goes idle only after {@link #FLUSH_DELAY}. A snapshot is exact for whatever committed that long before it.
 */
final class DatabaseTransactions {

    /** Longer than PostgreSQL lets an idle backend keep its counts to itself (PGSTAT_IDLE_INTERVAL, 10 s). */
    static final Duration FLUSH_DELAY = Duration.ofSeconds(11);

    private DatabaseTransactions() {
    }

    /** Transactions so far, by service database, in {@link Service} order. */
    static Map<String, Long> read(DatabaseNode database) throws SQLException {
        List<String> names = List.of(Service.ours()).stream().map(Service::database).toList();
        Map<String, Long> counts = new LinkedHashMap<>();
        try (Connection connection = Sql.connectToMaintenance(database);
                PreparedStatement query = connection.prepareStatement(
                        "select datname, xact_commit + xact_rollback from pg_stat_database where datname = any(?)")) {
            query.setArray(1, Sql.serviceDatabases(connection));
            Map<String, Long> found = new LinkedHashMap<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    found.put(rows.getString(1), rows.getLong(2));
                }
            }
            for (String name : names) {
                if (!found.containsKey(name)) {
                    throw new IllegalStateException("pg_stat_database has no row for database " + name);
                }
                counts.put(name, found.get(name));
            }
        }
        return counts;
    }

    /**
     * Waits until the counts hold everything committed up to {@code lastWork}. PostgreSQL's cumulative statistics
     * give no signal when a backend has published its counts: its documented interval is the condition.
     */
    static void awaitCounted(Instant lastWork) {
        Awaitility.await("pg_stat_database holds what committed until " + lastWork)
                .atMost(FLUSH_DELAY.plusSeconds(5)).pollInterval(Duration.ofMillis(250))
                .until(() -> !Instant.now().isBefore(lastWork.plus(FLUSH_DELAY)));
    }
}
