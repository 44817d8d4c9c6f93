package com.example.e2e.bench;

import java.nio.file.Path;
import java.util.List;

import org.flywaydb.core.Flyway;

import com.example.e2e.topology.DatabaseNode;
import com.example.service.database.DatabaseCreator;

/**
 * The database ceiling: the order transaction's statements ({@link OrderTransaction}) over plain JDBC,
 * as fast as {@code connections} connections can commit them, on a database of its own with order-service's
 * schema (migrated by the same Flyway scripts, from the repository) on the same PostgreSQL server.
 */
final class DatabaseCeiling {

    static final String DATABASE = "bench_ceiling";

    private DatabaseCeiling() {
    }

    /** @param tracked the processes whose CPU is read over the measured window */
    static ClosedLoop.Result measure(DatabaseNode database, Path repositoryRoot, BenchOrders orders,
            BenchSettings settings, List<ProcessCpu.Tracked> tracked) {
        String url = database.jdbcUrl(DATABASE);
        DatabaseCreator.ensureExists(url, database.user(), database.password());
        Flyway.configure().dataSource(url, database.user(), database.password())
                .locations(location(repositoryRoot.resolve("shared-events/messaging-starter/src/main/resources/db/shared-migration")),
                        location(repositoryRoot.resolve("order-service/src/main/resources/db/migration")))
                .load().migrate();
        return ClosedLoop.run("database-ceiling", settings.connections(), settings.warmup(), settings.measure(),
                index -> {
                    OrderTransaction transaction = new OrderTransaction(Sql.connect(database, DATABASE), false);
                    return new ClosedLoop.Worker() {
                        @Override
                        public boolean run() throws Exception {
                            transaction.run(orders.nextUser());
                            return true;
                        }

                        @Override
                        public void close() throws Exception {
                            transaction.close();
                        }
                    };
                }, tracked);
    }

    private static String location(Path directory) {
        return "filesystem:" + directory;
    }
}
