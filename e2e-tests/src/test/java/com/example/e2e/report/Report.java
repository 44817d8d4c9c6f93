package com.example.e2e.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The report of one run: {@code e2e-report.md} for people and {@code e2e-report.json} for tools, both
 * rewritten after every scenario so that a run cut short still leaves what it found.
 */
public final class Report {

    private static final JsonMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();
    private static final String[] SERVICES = { "order-service", "inventory-service", "coupon-service", "risk-service",
            "payment-service" };

    private final Path directory;
    private final String driver;
    private final Instant startedAt = Instant.now();
    private final List<ScenarioResult> scenarios = new ArrayList<>();

    public Report(Path directory, String driver) {
        this.directory = directory;
        this.driver = driver;
    }

    public synchronized void add(ScenarioResult result) {
        scenarios.add(result);
        write();
    }

    public synchronized List<ScenarioResult> scenarios() {
        return List.copyOf(scenarios);
    }

    public Path markdownFile() {
        return directory.resolve("e2e-report.md");
    }

    public Path jsonFile() {
        return directory.resolve("e2e-report.json");
    }

    private void write() {
        try {
            Files.createDirectories(directory);
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("started_at", startedAt.toString());
            json.put("driver", driver);
            json.put("passed", scenarios.stream().allMatch(ScenarioResult::passed));
            json.put("scenarios", scenarios);
            Files.writeString(jsonFile(), JSON.writeValueAsString(json));
            Files.writeString(markdownFile(), markdown());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        long passed = scenarios.stream().filter(ScenarioResult::passed).count();
        md.append("# End-to-end report\n\n");
        md.append("Run started ").append(startedAt).append(", driver `").append(driver).append("`: ").append(passed)
                .append(" of ").append(scenarios.size()).append(" scenarios passed.\n\n");
        md.append("| scenario | verdict | intents acked / failed / unknown | orders confirmed / rejected / other | faults |"
                + " duplicates suppressed (order / inventory / coupon / risk / payment) | client replays (after retry) | duration |\n");
        md.append("|---|---|---|---|---|---|---|---|\n");
        for (ScenarioResult scenario : scenarios) {
            long confirmed = scenario.orders().getOrDefault("CONFIRMED", 0L);
            long rejected = scenario.orders().getOrDefault("REJECTED", 0L);
            long other = scenario.orders().values().stream().mapToLong(Long::longValue).sum() - confirmed - rejected;
            md.append("| ").append(scenario.name()).append(" | ").append(scenario.passed() ? "PASS" : "**FAIL**")
                    .append(" | ").append(scenario.intents("ACKED")).append(" / ").append(scenario.intents("FAILED"))
                    .append(" / ").append(scenario.intents("UNKNOWN"))
                    .append(" | ").append(confirmed).append(" / ").append(rejected).append(" / ").append(other)
                    .append(" | ").append(faults(scenario.faults()))
                    .append(" | ").append(duplicates(scenario.duplicatesSuppressed()))
                    .append(" | ").append(scenario.clientReplays()).append(" (").append(scenario.replaysAfterRetry()).append(")")
                    .append(" | ").append(String.format("%.0f s", scenario.durationSeconds())).append(" |\n");
        }
        for (ScenarioResult scenario : scenarios) {
            md.append("\n## ").append(scenario.name()).append(scenario.passed() ? " — PASS" : " — FAIL").append("\n\n");
            md.append(scenario.description()).append("\n\n");
            md.append(String.format("%d attempts for %d intents (%d retried); quiet %.1f s after the workload; %.0f s in all.%n%n",
                    scenario.attempts(), scenario.intents().values().stream().mapToLong(Long::longValue).sum(),
                    scenario.retriedIntents(), scenario.quietAfterSeconds(), scenario.durationSeconds()));
            if (!scenario.faultLog().isEmpty()) {
                md.append("Faults:\n\n");
                scenario.faultLog().forEach(fault -> md.append("- ").append(fault).append('\n'));
                md.append('\n');
            }
            if (!scenario.redelivered().isEmpty()) {
                md.append("Broker redeliveries: ").append(new TreeMap<>(scenario.redelivered())).append("\n\n");
            }
            md.append("| invariant | verdict | violations |\n|---|---|---|\n");
            for (ScenarioResult.InvariantResult invariant : scenario.invariants()) {
                md.append("| ").append(invariant.sentence()).append(" | ").append(invariant.passed() ? "PASS" : "**FAIL**")
                        .append(" | ").append(invariant.passed() ? "" : invariant.violationCount() + ": "
                                + String.join("; ", invariant.violations().subList(0, Math.min(3, invariant.violations().size())))
                                        .replace("|", "\\|"))
                        .append(" |\n");
            }
        }
        return md.toString();
    }

    private static String faults(Map<String, Long> faults) {
        if (faults.isEmpty()) {
            return "none";
        }
        StringBuilder text = new StringBuilder();
        new TreeMap<>(faults).forEach((kind, count) -> text.append(text.length() == 0 ? "" : ", ").append(count).append(' ')
                .append(kind));
        return text.toString();
    }

    private static String duplicates(Map<String, Long> duplicates) {
        StringBuilder text = new StringBuilder();
        for (String service : SERVICES) {
            text.append(text.length() == 0 ? "" : " / ").append(duplicates.getOrDefault(service, 0L));
        }
        return text.toString();
    }
}
