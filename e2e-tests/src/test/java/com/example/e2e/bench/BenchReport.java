package com.example.e2e.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonProperty;

import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The report of one benchmark run: {@code bench-report.md} for people (the charts of {@link BenchCharts} linked
 * beside it) and {@code bench-report.json} for tools, with every figure and the two ratios the targets judge.
 */
public final class BenchReport {

    static final String JSON_FILE = "bench-report.json";
    static final String MARKDOWN_FILE = "bench-report.md";

    private static final JsonMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
            .addMixIn(Throughput.class, ThroughputJson.class)
            .addMixIn(BenchResult.Target.class, TargetJson.class)
            .build();
    private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final double MIB = 1024 * 1024;

    private BenchReport() {
    }

    /** Writes {@code bench-report.json} and {@code bench-report.md} into {@code directory}, creating it if needed. */
    public static void write(BenchResult result, Path directory) {
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(JSON_FILE), json(result));
            Files.writeString(directory.resolve(MARKDOWN_FILE), markdown(result));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String json(BenchResult result) {
        ObjectNode json = JSON.valueToTree(result);
        json.putObject("ratios")
                .put("order_api_to_database_ceiling", orderApiRatio(result))
                .put("relay_drain_to_broker_ceiling", relayDrainRatio(result));
        return JSON.writeValueAsString(json);
    }

    static String markdown(BenchResult result) {
        StringBuilder md = new StringBuilder("# Benchmark report\n\n");
        md.append(setup(result.setup())).append("\n\n");
        targets(md, result);
        throughput(md, result);
        orderApiLatency(md, result.orderApi());
        endToEnd(md, result.endToEnd());
        replays(md, result.replays());
        memory(md, result.residentMemory());
        md.append("## Charts\n\n")
                .append("![Throughput against the ceilings](").append(BenchCharts.THROUGHPUT_FILE).append(")\n\n")
                .append("![Latency percentiles](").append(BenchCharts.LATENCY_FILE).append(")\n");
        return md.toString();
    }

    static double orderApiRatio(BenchResult result) {
        return result.orderApi().throughput().ratioTo(result.databaseCeiling());
    }

    static double relayDrainRatio(BenchResult result) {
        return result.relayDrain().ratioTo(result.brokerCeiling());
    }

    private static String setup(BenchResult.Setup setup) {
        return format("Run started %s on %d cores; %d connections; %d-byte messages; fan-out %d; backlog %d outbox rows; "
                + "database %s; broker %s; service JVM `%s`.", STARTED.format(setup.startedAt()), setup.cores(),
                setup.connections(), setup.messageBytes(), setup.fanOut(), setup.backlog(), setup.database(),
                setup.broker(), setup.serviceJvm());
    }

    private static void targets(StringBuilder md, BenchResult result) {
        md.append("## Targets\n\n| target | measured | bar | met |\n|---|---:|---:|:---:|\n");
        for (BenchResult.Target target : result.targets()) {
            md.append("| ").append(cell(target.name()))
                    .append(" | ").append(figure(target.measured(), target.unit()))
                    .append(" | ").append(target.atLeast() ? "≥ " : "< ").append(figure(target.bar(), target.unit()))
                    .append(" | ").append(target.met() ? "✅" : "❌").append(" |\n");
        }
        md.append('\n');
    }

    private static void throughput(StringBuilder md, BenchResult result) {
        md.append("## Throughput against the ceilings\n\n")
                .append("Each ceiling is measured in the same run as the system it bounds.\n\n")
                .append("| | rate | of the ceiling |\n|---|---:|---:|\n")
                .append(rateRow("Database ceiling", result.databaseCeiling(), "tx/s", "—"))
                .append(rateRow("Order API", result.orderApi().throughput(), "orders/s", percent(orderApiRatio(result))))
                .append(rateRow("Broker ceiling", result.brokerCeiling(), "msg/s", "—"))
                .append(rateRow("Relay drain", result.relayDrain(), "events/s", percent(relayDrainRatio(result))))
                .append('\n');
    }

    private static String rateRow(String name, Throughput throughput, String unit, String ratio) {
        return "| " + name + " | " + rate(throughput.perSecond()) + " " + unit + " | " + ratio + " |\n";
    }

    private static void orderApiLatency(StringBuilder md, BenchResult.Api api) {
        md.append("## Order API latency (closed loop)\n\n")
                .append("| requests | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) | errors |\n|---:|---:|---:|---:|---:|---:|\n")
                .append("| ").append(percentiles(api.latency())).append(" | ").append(api.errors()).append(" |\n\n");
    }

    private static void endToEnd(StringBuilder md, BenchResult.EndToEnd endToEnd) {
        md.append("## End to end\n\n")
                .append(format("Asked for %s orders/s (the whole pipeline sustained %s orders/s in a closed loop); orders "
                        + "arrived at %s orders/s for %.0f s: %d placed, %d failed, %d confirmed, %d rejected, %d not final.\n\n",
                        rate(endToEnd.requestedPerSecond()), rate(endToEnd.capacityPerSecond()),
                        rate(endToEnd.offeredPerSecond()), endToEnd.seconds(), endToEnd.placed(), endToEnd.failed(),
                        endToEnd.confirmed(), endToEnd.rejected(), endToEnd.notFinal()))
                .append("| latency | count | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |\n|---|---:|---:|---:|---:|---:|\n")
                .append(latencyRow("201 → final", endToEnd.createdToFinal()))
                .append(latencyRow("relay lag", endToEnd.relayLag()));
        new TreeMap<>(endToEnd.consumerLag())
                .forEach((service, lag) -> md.append(latencyRow("consumer lag: " + cell(service), lag)));
        md.append('\n');
    }

    private static String latencyRow(String name, Latencies latencies) {
        return "| " + name + " | " + percentiles(latencies) + " |\n";
    }

    private static void replays(StringBuilder md, Latencies replays) {
        md.append("## Replays\n\n")
                .append("| count | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |\n|---:|---:|---:|---:|---:|\n")
                .append("| ").append(percentiles(replays)).append(" |\n\n");
    }

    private static void memory(StringBuilder md, Map<String, Long> residentMemory) {
        md.append("## Memory\n\n| service | resident MiB |\n|---|---:|\n");
        new TreeMap<>(residentMemory).forEach((service, bytes) -> md.append("| ").append(cell(service)).append(" | ")
                .append(format("%.1f", bytes / MIB)).append(" |\n"));
        md.append('\n');
    }

    /** count | p50 | p95 | p99 | max, the inner cells of a table row. */
    private static String percentiles(Latencies latencies) {
        return latencies.count() + " | " + ms(latencies.p50()) + " | " + ms(latencies.p95()) + " | "
                + ms(latencies.p99()) + " | " + ms(latencies.max());
    }

    private static String figure(double value, String unit) {
        return switch (unit) {
            case "%" -> format("%.0f%%", value);
            case "ms" -> ms(value) + " ms";
            default -> format("%.1f %s", value, unit);
        };
    }

    static String rate(double perSecond) {
        return format("%.0f", perSecond);
    }

    static String ms(double millis) {
        return format(millis < 10 ? "%.2f" : "%.1f", millis);
    }

    static String percent(double ratio) {
        return format("%.0f%%", ratio * 100);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    private static String format(String pattern, Object... arguments) {
        return String.format(Locale.ROOT, pattern, arguments);
    }

    /** Adds the derived rate to every serialised {@link Throughput}. */
    private interface ThroughputJson {

        @JsonProperty("per_second")
        double perSecond();
    }

    /** Adds the verdict to every serialised {@link BenchResult.Target}. */
    private interface TargetJson {

        @JsonProperty("met")
        boolean met();
    }
}
