package com.example.e2e.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * How PostgreSQL's processes are told apart by their titles, with and without a cluster name, and what each category
 * used between two readings.
 */
class PostgresCpuTests {

    private static final List<String> DATABASES = List.of("orders", "payment_simulator");

    @Test
    void aBackendCountsForItsDatabaseUnlessItIsTheBenchmarksOwn() {
        assertThat(category("postgres: order_service orders 127.0.0.1(41234) idle")).isEqualTo("orders");
        assertThat(category("postgres: 15/main: order_service orders 127.0.0.1(41234) UPDATE")).isEqualTo("orders");
        assertThat(category("postgres: simulator payment_simulator [local] idle in transaction"))
                .isEqualTo("payment_simulator");
        assertThat(category("postgres: bench orders 127.0.0.1(41236) SELECT")).isEqualTo(PostgresCpu.BENCHMARK);
        assertThat(category("postgres: bench postgres 127.0.0.1(41238) idle")).isEqualTo(PostgresCpu.BENCHMARK);
        assertThat(category("postgres: other_app elsewhere 127.0.0.1(41240) idle")).isEqualTo(PostgresCpu.REST);
    }

    @Test
    void helpersCountByWhatTheyDo() {
        assertThat(category("postgres: walwriter ")).isEqualTo(PostgresCpu.WAL_WRITER);
        assertThat(category("postgres: 15/main: checkpointer ")).isEqualTo(PostgresCpu.CHECKPOINTS);
        assertThat(category("postgres: background writer ")).isEqualTo(PostgresCpu.CHECKPOINTS);
        assertThat(category("postgres: autovacuum launcher ")).isEqualTo(PostgresCpu.AUTOVACUUM);
        assertThat(category("postgres: autovacuum worker orders")).isEqualTo(PostgresCpu.AUTOVACUUM);
        assertThat(category("postgres: logical replication launcher ")).isEqualTo(PostgresCpu.REST);
        assertThat(category("")).as("a process that ended meanwhile").isEqualTo(PostgresCpu.REST);
    }

    /**
     * An autovacuum worker that ends between the readings took all its CPU into the postmaster's reaped-children time;
     * what it used before the first reading is not counted twice, nor taken out of autovacuum, which would go below
     * zero. A backend that lived through both counts its difference; a new one all of its ticks.
     */
    @Test
    void aProcessThatEndedInBetweenCountsOnlyWhatItUsedSinceTheFirstReading() {
        PostgresCpu.Reading start = new PostgresCpu.Reading(Map.of(
                10L, new PostgresCpu.Child("orders", 100),
                11L, new PostgresCpu.Child(PostgresCpu.AUTOVACUUM, 50),
                12L, new PostgresCpu.Child("payment_simulator", 40)), 1_000);
        PostgresCpu.Reading end = new PostgresCpu.Reading(Map.of(
                10L, new PostgresCpu.Child("orders", 160),
                // pid 12 ended and was taken by a new autovacuum worker
                12L, new PostgresCpu.Child(PostgresCpu.AUTOVACUUM, 5),
                13L, new PostgresCpu.Child("orders", 7)), 1_000 + 80 + 45);

        Map<String, Long> ticks = PostgresCpu.between(start, end, DATABASES);

        assertThat(ticks).containsEntry("orders", 67L).containsEntry(PostgresCpu.AUTOVACUUM, 5L)
                .containsEntry("payment_simulator", 0L)
                // 80 from the worker (30 since the first reading), 45 from the ended backend (5 since)
                .containsEntry(PostgresCpu.REST, 125L - 50 - 40);
        assertThat(ticks.values()).allMatch(value -> value >= 0);
        assertThat(ticks.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(
                (160 + 5 + 7 + 1_125) - (100 + 50 + 40 + 1_000));
    }

    private static String category(String title) {
        return PostgresCpu.category(title, DATABASES, "bench");
    }
}
