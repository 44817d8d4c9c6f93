package com.example.e2e.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class DatabaseStatementsTests {

    @Test
    void quotesAStatementOnOneLineCutShort() {
        assertThat(DatabaseStatements.text("\n  select id\n    from orders\twhere id = $1 ")).isEqualTo(
                "select id from orders where id = $1");
        String cut = DatabaseStatements.text("select " + "x, ".repeat(100) + "y from t");
        assertThat(cut).hasSize(DatabaseStatements.QUERY_CHARS).endsWith("…").startsWith("select x, x, ");
    }

    @Test
    void dividesEveryStatementByTheOrdersButReportsOnlyTheTopOnes() {
        List<DatabaseStatements.Row> rows = new ArrayList<>();
        for (int i = DatabaseStatements.TOP + 3; i > 0; i--) {
            rows.add(new DatabaseStatements.Row("orders", "statement " + i, 100L * i, 10.0 * i, 1.0, 50L * i));
        }

        BenchResult.Statements perOrder = new DatabaseStatements.Counted(rows).perOrder(100);

        int all = DatabaseStatements.TOP + 3;
        assertThat(perOrder.callsPerOrder()).isCloseTo(all * (all + 1) / 2.0, within(1e-9));
        assertThat(perOrder.executionMillisPerOrder()).isCloseTo(all * (all + 1) / 2.0 / 10, within(1e-9));
        assertThat(perOrder.planningMillisPerOrder()).isCloseTo(all / 100.0, within(1e-9));
        assertThat(perOrder.top()).hasSize(DatabaseStatements.TOP).first()
                .isEqualTo(new BenchResult.Statement("orders", "statement " + all, all, all / 10.0, 0.01, all / 2.0));
    }
}
