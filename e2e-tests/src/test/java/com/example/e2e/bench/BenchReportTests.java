package com.example.e2e.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The benchmark's report files (Markdown, JSON, two PNG charts) and the small sums they rest on. */
class BenchReportTests {

    private static final long MIB = 1024 * 1024;

    @TempDir
    Path directory;

    @Test
    void writesEveryFigureToJson() throws IOException {
        BenchReport.write(result(), directory);

        JsonNode json = JsonMapper.builder().build().readTree(Files.readString(directory.resolve("bench-report.json")));
        assertThat(json.path("ratios").path("order_api_to_database_ceiling").asDouble())
                .isCloseTo(11352.0 / 24680.0, within(1e-12));
        assertThat(json.path("ratios").path("relay_drain_to_broker_ceiling").asDouble())
                .isCloseTo(6250.0 / 9000.0, within(1e-12));
        assertThat(json.path("targets").get(0).path("met").isBoolean()).isTrue();
        assertThat(json.path("targets").get(0).path("met").asBoolean()).isFalse();
        assertThat(json.path("targets").get(0).path("at_least").asBoolean()).isTrue();
        assertThat(json.path("setup").path("started_at").asString()).isEqualTo("2025-06-01T10:15:30Z");
        assertThat(json.path("database_ceiling").path("per_second").asDouble()).isEqualTo(2468.0);
        assertThat(json.path("order_api").path("throughput").path("per_second").asDouble()).isEqualTo(1135.2);
        assertThat(json.path("end_to_end").path("consumer_lag").path("inventory-service").path("p99").asDouble())
                .isEqualTo(41.2);
        assertThat(json.path("resident_memory").path("order-service").asLong()).isEqualTo(298 * MIB);
    }

    @Test
    void writesMarkdownForAReader() throws IOException {
        BenchReport.write(result(), directory);

        String markdown = Files.readString(directory.resolve("bench-report.md"));
        assertThat(markdown).startsWith("# Benchmark report\n\n")
                .contains("Run started 2025-06-01 10:15:30 UTC on 8 cores; 32 connections; 412-byte messages; fan-out 3;"
                        + " backlog 20000 outbox rows; database PostgreSQL 17.5 (fsync=on, synchronous_commit=on);"
                        + " broker RabbitMQ 4.1.0 (quorum queues); service JVM `-Xmx256m -XX:+UseSerialGC`.")
                .contains("| Order API / database ceiling | 46% | ≥ 50% | ❌ |")
                .contains("| Relay drain / broker ceiling | 69% | ≥ 50% | ✅ |")
                .contains("| 201 → final p99 | 182.7 ms | < 250.0 ms | ✅ |")
                .contains("| Replay p99 | 8.77 ms | < 20.0 ms | ✅ |")
                .contains("| Database ceiling | 2468 tx/s | — |")
                .contains("| Order API | 1135 orders/s | 46% |")
                .contains("| Broker ceiling | 9000 msg/s | — |")
                .contains("| Relay drain | 6250 events/s | 69% |")
                .contains("| 11352 | 21.4 | 48.7 | 87.4 | 312.9 | 3 |")
                .contains("Asked for 200 orders/s (the whole pipeline sustained 310 orders/s in a closed loop); orders arrived at "
                        + "200 orders/s for 30 s: 6000 placed, 0 failed, 5412 confirmed, 588 rejected, 0 not final.")
                .contains("| 201 → final | 6000 | 38.2 | 96.4 | 182.7 | 401.3 |")
                .contains("| relay lag | 6000 | 4.12 | 11.8 | 19.6 | 55.0 |")
                .contains("| consumer lag: inventory-service | 6000 | 9.87 | 24.3 | 41.2 | 120.5 |")
                .contains("| 500 | 2.31 | 5.02 | 8.77 | 14.6 |")
                .contains("| order-service | 298.0 |")
                .contains("| coupon-service | 187.5 |")
                .contains("![Throughput against the ceilings](bench-throughput.png)")
                .contains("![Latency percentiles](bench-latency.png)");
        assertThat(List.of("## Targets", "## Throughput against the ceilings", "## Order API latency", "## End to end",
                "## Replays", "## Memory", "## Charts")).allSatisfy(heading -> assertThat(markdown).contains(heading))
                .isSortedAccordingTo((a, b) -> Integer.compare(markdown.indexOf(a), markdown.indexOf(b)));
    }

    @Test
    void drawsBothCharts() throws IOException {
        BenchCharts.write(result(), directory);

        for (String file : List.of("bench-throughput.png", "bench-latency.png")) {
            BufferedImage image = ImageIO.read(directory.resolve(file).toFile());
            assertThat(image).as(file).isNotNull();
            assertThat(image.getWidth()).as(file).isEqualTo(900);
            assertThat(image.getHeight()).as(file).isEqualTo(500);
            assertThat(distinctColours(image)).as(file).isGreaterThan(5);
        }
    }

    @Test
    void percentilesAreNearestRank() {
        long[] nanos = LongStream.rangeClosed(1, 100).map(millis -> (101 - millis) * 1_000_000).toArray();

        assertThat(Latencies.ofNanos(nanos)).isEqualTo(new Latencies(100, 50, 95, 99, 100));
        assertThat(Latencies.ofNanos(new long[0])).isSameAs(Latencies.NONE);
    }

    @Test
    void targetsAreMetFromTheirSide() {
        assertThat(new BenchResult.Target("ratio", 50, 50, "%", true).met()).isTrue();
        assertThat(new BenchResult.Target("ratio", 49.9, 50, "%", true).met()).isFalse();
        assertThat(new BenchResult.Target("p99", 249.9, 250, "ms", false).met()).isTrue();
        assertThat(new BenchResult.Target("p99", 250, 250, "ms", false).met()).isFalse();
    }

    private static int distinctColours(BufferedImage image) {
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 5) {
            for (int x = 0; x < image.getWidth(); x += 5) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }

    private static BenchResult result() {
        BenchResult.Setup setup = new BenchResult.Setup(Instant.parse("2025-06-01T10:15:30Z"), 8, 32, 412, 3, 20000,
                "PostgreSQL 17.5 (fsync=on, synchronous_commit=on)", "RabbitMQ 4.1.0 (quorum queues)",
                "-Xmx256m -XX:+UseSerialGC");
        BenchResult.Api orderApi = new BenchResult.Api(new Throughput(11352, 10),
                new Latencies(11352, 21.43, 48.7, 87.41, 312.9), 3);
        BenchResult.EndToEnd endToEnd = new BenchResult.EndToEnd(200, 310, 200, 30, 6000, 0, 5412, 588, 0,
                new Latencies(6000, 38.2, 96.4, 182.7, 401.3), new Latencies(6000, 4.12, 11.8, 19.6, 55.0),
                Map.of("inventory-service", new Latencies(6000, 9.87, 24.3, 41.2, 120.5),
                        "coupon-service", new Latencies(6000, 8.4, 21.9, 37.6, 98.2),
                        "risk-service", new Latencies(6000, 11.2, 27.5, 45.8, 133.0)));
        List<BenchResult.Target> targets = List.of(
                new BenchResult.Target("Order API / database ceiling", 46.0, 50, "%", true),
                new BenchResult.Target("Relay drain / broker ceiling", 69.4, 50, "%", true),
                new BenchResult.Target("201 → final p99", 182.7, 250, "ms", false),
                new BenchResult.Target("Replay p99", 8.77, 20, "ms", false));
        return new BenchResult(setup, new Throughput(24680, 10), orderApi, new Throughput(90000, 10),
                new Throughput(20000, 3.2), endToEnd, new Latencies(500, 2.31, 5.02, 8.77, 14.6),
                Map.of("order-service", 298 * MIB, "inventory-service", 201 * MIB, "coupon-service", 375 * MIB / 2,
                        "risk-service", 176 * MIB), targets);
    }
}
