package com.example.e2e.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import com.example.e2e.topology.DatabaseNode;

/**
 * What the services' statements took inside PostgreSQL, statement by statement: {@code pg_stat_statements}, which the
 * benchmark's own server loads with planning tracked. Reset when a phase starts and read when it ends, so that the
 * figures cover the same orders as the CPU beside them. Statements of the benchmark's own connections (it connects
 * as the superuser, the services as their runtime roles) are left out, and so are those of other databases.
 *
 * <p>The times are PostgreSQL's own clock around each statement's planning and execution: CPU, and whatever the
 * statement waited for (a lock, a page from disk). {@code BEGIN} and {@code COMMIT} are statements here too (utility
 * statements, which pg_stat_statements tracks), two per transaction; the commit itself, with its WAL flush, happens
 * after {@code COMMIT}'s timed part. What PostgreSQL spends outside the timed parts, per round trip (reading the
 * protocol, sending the rows back) and per commit, is the rest of its CPU.
 */
final class DatabaseStatements {

    /** The statements reported one by one, those that took the most first. */
    static final int TOP = 12;
    /** Longest statement text quoted in the report. */
    static final int QUERY_CHARS = 160;

    private DatabaseStatements() {
    }

    /** Forgets every statement counted so far (creating the view the first time). */
    static void reset(DatabaseNode database) throws SQLException {
        try (Connection connection = Sql.connectToMaintenance(database);
                Statement statement = connection.createStatement()) {
            statement.execute("create extension if not exists pg_stat_statements");
            statement.execute("select pg_stat_statements_reset()");
        }
    }

    /** The services' statements since {@link #reset}: every one's counts, those that took the most first. */
    static Counted read(DatabaseNode database) throws SQLException {
        List<Row> statements = new ArrayList<>();
        try (Connection connection = Sql.connectToMaintenance(database);
                PreparedStatement query = connection.prepareStatement("""
                        select d.datname, s.query, s.calls, s.total_exec_time, s.total_plan_time, s.rows
                        from pg_stat_statements s
                        join pg_database d on d.oid = s.dbid
                        where d.datname = any(?) and s.userid <> (select oid from pg_roles where rolname = current_user)
                        order by s.total_exec_time + s.total_plan_time desc""")) {
            query.setArray(1, Sql.serviceDatabases(connection));
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    statements.add(new Row(rows.getString(1), text(rows.getString(2)), rows.getLong(3),
                            rows.getDouble(4), rows.getDouble(5), rows.getLong(6)));
                }
            }
        }
        return new Counted(statements);
    }

    /** One statement's counts: calls, milliseconds of execution and of planning, rows returned or changed. */
    record Row(String database, String query, long calls, double executionMillis, double planningMillis, long rows) {
    }

    /** Every statement counted, those that took the most first. */
    record Counted(List<Row> statements) {

        /** Divided by the orders they served: the totals, and the {@link #TOP} statements one by one. */
        BenchResult.Statements perOrder(double orders) {
            List<BenchResult.Statement> top = statements.stream().limit(TOP)
                    .map(row -> new BenchResult.Statement(row.database(), row.query(), row.calls() / orders,
                            row.executionMillis() / orders, row.planningMillis() / orders, row.rows() / orders))
                    .toList();
            return new BenchResult.Statements(statements.stream().mapToLong(Row::calls).sum() / orders,
                    statements.stream().mapToDouble(Row::executionMillis).sum() / orders,
                    statements.stream().mapToDouble(Row::planningMillis).sum() / orders, top);
        }
    }

    /** The statement on one line, cut at {@link #QUERY_CHARS}. */
    static String text(String query) {
        String line = query.strip().replaceAll("\\s+", " ");
        return line.length() <= QUERY_CHARS ? line : line.substring(0, QUERY_CHARS - 1) + "…";
    }
}
