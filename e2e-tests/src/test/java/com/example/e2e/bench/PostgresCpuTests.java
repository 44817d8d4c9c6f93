package com.example.e2e.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** How PostgreSQL's processes are told apart by their titles, with and without a cluster name. */
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

    private static String category(String title) {
        return PostgresCpu.category(title, DATABASES, "bench");
    }
}
