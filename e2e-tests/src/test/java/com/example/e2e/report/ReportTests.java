package com.example.e2e.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The report files: one row per scenario in Markdown, every figure in JSON, rewritten after each scenario. */
class ReportTests {

    @TempDir
    Path directory;

    @Test
    void writesEveryScenarioToMarkdownAndJson() throws IOException {
        Report report = new Report(directory, "processes");

        report.add(result("broker SIGKILL mid-flow", true));
        report.add(result("soak", false));

        String markdown = Files.readString(directory.resolve("e2e-report.md"));
        assertThat(markdown).contains("1 of 2 scenarios passed")
                .contains("| broker SIGKILL mid-flow | PASS | 170 / 5 / 2 | 120 / 52 / 0 | 1 BROKER_KILL, 2 SERVICE_KILL |"
                        + " 3 / 4 / 0 / 1 / 2 | 9 (2) | 36 s |")
                .contains("| soak | **FAIL** |")
                .contains("| every dead-letter queue is empty | **FAIL** | 1: dead-letter queue x.dlq holds 1 messages |");
        JsonNode json = JsonMapper.builder().build().readTree(Files.readString(directory.resolve("e2e-report.json")));
        assertThat(json.path("passed").asBoolean()).isFalse();
        assertThat(json.path("scenarios")).hasSize(2);
        JsonNode first = json.path("scenarios").get(0);
        assertThat(first.path("intents").path("ACKED").asLong()).isEqualTo(170);
        assertThat(first.path("duplicates_suppressed").path("inventory-service").asLong()).isEqualTo(4);
        assertThat(first.path("faults").path("SERVICE_KILL").asLong()).isEqualTo(2);
        assertThat(first.path("invariants").get(0).path("passed").asBoolean()).isTrue();
    }

    private static ScenarioResult result(String name, boolean passed) {
        return new ScenarioResult(name, "what it does", passed, 36.2, Map.of("ACKED", 170L, "FAILED", 5L, "UNKNOWN", 2L),
                190, 11, 9, 2, Map.of("CONFIRMED", 120L, "REJECTED", 52L), Map.of("BROKER_KILL", 1L, "SERVICE_KILL", 2L),
                List.of("BROKER_KILL rabbitmq: process gone"), Map.of("order-service", 3L, "inventory-service", 4L,
                        "risk-service", 1L, "payment-service", 2L), Map.of("order.events.risk-service", 2L), 2.5,
                List.of(new ScenarioResult.InvariantResult("QUIESCENT", "the system went quiet", true, 0, List.of()),
                        new ScenarioResult.InvariantResult("DLQS_EMPTY", "every dead-letter queue is empty", passed,
                                passed ? 0 : 1, passed ? List.of() : List.of("dead-letter queue x.dlq holds 1 messages"))));
    }
}
