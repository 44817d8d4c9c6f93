package com.example.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plain JDBC on a service's database, for tests that look at rows the service wrote (its effects,
 * processed_events, outbox_events) or seed rows before events arrive. A new connection per call, so it
 * works across restarts of the database server.
 */
public final class ServiceDatabase {

    private final String jdbcUrl;
    private final String user;
    private final String password;

    public ServiceDatabase(String jdbcUrl, String user, String password) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
    }

    public static ServiceDatabase on(TestInfrastructure.Postgres server, String database) {
        return new ServiceDatabase(server.jdbcUrl(database), server.user(), server.password());
    }

    public long count(String sql, Object... parameters) {
        Object value = rows(sql, parameters).get(0).values().iterator().next();
        return value == null ? 0 : ((Number) value).longValue();
    }

    public void execute(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, parameters)) {
            statement.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /**
     * Runs a {@code ... for update nowait} statement in a transaction of its own: false when PostgreSQL refused because
     * another transaction holds one of the rows (SQLSTATE 55P03), true when it got them all.
     */
    public boolean canLockNow(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, parameters)) {
            statement.execute();
            return true;
        } catch (SQLException e) {
            if ("55P03".equals(e.getSQLState())) {
                return false;
            }
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    public List<Map<String, Object>> rows(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = prepare(connection, sql, parameters);
                ResultSet result = statement.executeQuery()) {
            List<Map<String, Object>> rows = new ArrayList<>();
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= columns; i++) {
                    row.put(result.getMetaData().getColumnLabel(i), result.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** The event types of the replies written to the outbox for one order, in write order. */
    public List<String> replies(long orderId) {
        return rows("select event_type from outbox_events where aggregate_type = 'order' and aggregate_id = ? "
                + "order by seq", Long.toString(orderId)).stream().map(row -> (String) row.get("event_type")).toList();
    }

    /** The JSON body of the order's only reply of that type. */
    public String reply(long orderId, String eventType) {
        List<Map<String, Object>> rows = rows("select payload::text as payload from outbox_events "
                + "where aggregate_type = 'order' and aggregate_id = ? and event_type = ?", Long.toString(orderId), eventType);
        if (rows.size() != 1) {
            throw new AssertionError("expected one " + eventType + " for order " + orderId + ", found " + rows.size());
        }
        return (String) rows.get(0).get("payload");
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, user, password);
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... parameters)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
        return statement;
    }
}
