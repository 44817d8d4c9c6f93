package com.example.e2e.bench;

import static com.example.e2e.bench.BenchResult.Bound.AT_LEAST;
import static com.example.e2e.bench.BenchResult.Bound.AT_MOST;
import static com.example.e2e.bench.BenchResult.Bound.BELOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.example.e2e.topology.Service;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The benchmark's report files (Markdown, JSON, three PNG charts) and the small sums they rest on. */
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
        assertThat(json.path("targets").get(0).path("bound").asString()).isEqualTo("AT_LEAST");
        assertThat(json.path("setup").path("started_at").asString()).isEqualTo("2025-06-01T10:15:30Z");
        assertThat(json.path("database_ceiling").path("per_second").asDouble()).isEqualTo(2468.0);
        assertThat(json.path("order_api").path("throughput").path("per_second").asDouble()).isEqualTo(1135.2);
        assertThat(json.path("order_api").path("cpu_millis_per_order").path("order-service").asDouble()).isEqualTo(0.92);
        assertThat(json.path("order_api").path("ceiling_cpu_millis_per_transaction").path("PostgreSQL").asDouble())
                .isEqualTo(0.38);
        assertThat(json.path("end_to_end").path("consumer_lag").path("inventory-service").path("p99").asDouble())
                .isEqualTo(41.2);
        assertThat(json.path("end_to_end").path("path").path(OrderPath.FINAL).path("p50").asDouble()).isEqualTo(38.2);
        assertThat(json.path("replays").path("p99").asDouble()).isEqualTo(8.77);
        assertThat(json.path("replay_warmup").path("p99").asDouble()).isEqualTo(16.2);
        assertThat(json.path("idle").path("resident_bytes").path("order-service").asLong()).isEqualTo(298 * MIB);
        assertThat(json.path("idle").path("cpu_percent_of_core").path("RabbitMQ").asDouble()).isEqualTo(2.5);
        JsonNode cost = json.path("cost");
        assertThat(cost.path("capacity_per_second").asDouble()).isCloseTo(600 / 40.0, within(1e-9));
        assertThat(cost.path("system_cpu_millis_per_order").asDouble()).isCloseTo(100.0, within(1e-9));
        assertThat(cost.path("load_generator_cpu_millis_per_order").asDouble()).isEqualTo(4.5);
        assertThat(cost.path("cpu_millis_per_order").path("PostgreSQL").asDouble()).isEqualTo(21.0);
        assertThat(cost.path("jit_cpu_millis_per_order").path("order-service").asDouble()).isEqualTo(2.3);
        assertThat(cost.path("transactions_per_order").path("orders").asDouble()).isEqualTo(7.0);
        assertThat(cost.path("transactions_per_order_in_all").asDouble()).isCloseTo(19.0, within(1e-9));
        assertThat(cost.path("messages_per_order").path("published").asDouble()).isEqualTo(4.0);
        assertThat(json.path("levers").path("baseline").path("capacity_per_second").asDouble())
                .isCloseTo(400 / 25.0, within(1e-9));
        assertThat(json.path("levers").path("levers").get(0).path("properties")
                .path("spring.reactor.context-propagation").asString()).isEqualTo("limited");
        assertThat(json.path("levers").path("levers").get(0).path("cost").path("system_cpu_millis_per_order").asDouble())
                .isCloseTo(90.0, within(1e-9));
        assertThat(json.path("levers").path("levers").get(0).path("end_to_end").path("p99").asDouble()).isEqualTo(450.0);
        assertThat(json.path("levers").path("levers").get(0).path("way").path("consumer lag: inventory-service")
                .path("p99").asDouble()).isEqualTo(150.0);
        assertThat(json.path("levers").path("baseline_way").path("relay lag").path("p50").asDouble()).isEqualTo(10.0);
        assertThat(json.path("end_to_end").has("way")).as("a view of the end to end, not a figure of its own").isFalse();
        assertThat(json.path("setup").path("warmup").path("jit_share").asDouble()).isEqualTo(0.021);
        assertThat(json.path("end_to_end").path("requested_per_second").isNull()).isTrue();
        assertThat(json.path("end_to_end").path("load").path("busy").asDouble()).isEqualTo(0.934);
        assertThat(json.path("end_to_end").path("load").path("cpu_millis_per_order").asDouble()).isEqualTo(131.4);
        assertThat(json.path("unloaded").path("created_to_final").path("p99").asDouble()).isEqualTo(44.8);
        assertThat(json.path("levers").path("levers").get(0).path("load").path("busy").asDouble()).isEqualTo(0.64);
        assertThat(json.path("levers").path("baseline_load").path("busy").asDouble()).isEqualTo(0.71);
    }

    @Test
    void leavesTheUnloadedRunOutWhenItDidNotRun() throws IOException {
        BenchResult result = result();
        BenchReport.write(new BenchResult(result.setup(), result.cost(), result.databaseCeiling(), result.orderApi(),
                result.brokerCeiling(), result.relayDrain(), result.endToEnd(), null, List.of(), result.replays(),
                result.replayWarmup(), result.idle(),
                result.levers(), result.targets()), directory);

        assertThat(Files.readString(directory.resolve("bench-report.md"))).doesNotContain("Unloaded")
                .doesNotContain("By arrival rate")
                .contains("| database | closed loop (cost phase) | at 9 orders/s |\n|---|---:|---:|\n"
                        + "| orders | 7.00 | 12.5 |\n")
                .contains("| **all** | 19.0 | 26.0 |\n")
                .contains("## Replays");
    }

    @Test
    void showsEveryEndToEndRunByItsRateAndHowFarTheLatencyBarHeld() throws IOException {
        BenchReport.write(result(), directory);

        assertThat(Files.readString(directory.resolve("bench-report.md")))
                .contains("### By arrival rate\n\nThen orders arrived at 2 more rates for 20 s each, counted after a "
                        + "warm-up as above, every run's orders final before the next began. All the runs by their "
                        + "rate, the two above among them:\n\n")
                .contains("| orders/s | of the capacity | cores busy | system CPU per order (ms) | transactions per order "
                        + "| 201 → final p50 (ms) | p99 (ms) | p99 < 100 ms |\n|---:|---:|---:|---:|---:|---:|---:|:---:|\n"
                        + "| 1 | 7% | 18% | 212.6 | 30.0 | 21.5 | 44.8 | ✅ |\n"
                        + "| 3 | 20% | 40% | 150.0 | 28.0 | 30.0 | 88.0 | ✅ |\n"
                        + "| 6 | 40% | 70% | 140.0 | 27.0 | 60.0 | 140.0 | ❌ |\n"
                        + "| 9 | 60% | 93% | 131.4 | 26.0 | 38.2 | 182.7 | ❌ |\n\n"
                        + "The p99 < 100 ms held up to 3 orders/s, 20% of the closed loop's capacity, and at every "
                        + "slower rate.\n\n");
    }

    @Test
    void saysWhenTheLatencyBarHeldAtNoRate() throws IOException {
        BenchResult result = result();
        BenchReport.write(new BenchResult(result.setup(), result.cost(), result.databaseCeiling(), result.orderApi(),
                result.brokerCeiling(), result.relayDrain(), result.endToEnd(), null, List.of(byRate(6, 60.0, 140.0)),
                result.replays(), result.replayWarmup(), result.idle(), result.levers(), result.targets()), directory);

        assertThat(Files.readString(directory.resolve("bench-report.md")))
                .contains("rate, the one above among them:")
                .contains("| 6 | 40% | 70% | 140.0 | 27.0 | 60.0 | 140.0 | ❌ |\n"
                        + "| 9 | 60% | 93% | 131.4 | 26.0 | 38.2 | 182.7 | ❌ |\n\n"
                        + "The p99 < 100 ms held at none of these rates.\n\n");
    }

    @Test
    void readsTheSharesOfTheCapacityToMeasureInPercent() {
        assertThat(BenchSettings.shares(" 40, 20,30 ,20")).containsExactly(0.2, 0.3, 0.4);
        assertThat(BenchSettings.shares("none")).isEmpty();
        assertThat(BenchSettings.shares("")).isEmpty();
        assertThatThrownBy(() -> BenchSettings.shares("20,0.5,120")).hasMessageContaining("120");
    }

    @Test
    void showsTheReplaysOfTheWarmUpApartFromThoseCounted() throws IOException {
        BenchReport.write(result(), directory);

        assertThat(Files.readString(directory.resolve("bench-report.md")))
                .contains("| the first (warm-up, not counted) | 500 | 3.90 | 9.40 | 16.2 | 25.0 |\n"
                        + "| counted | 500 | 2.31 | 5.02 | 8.77 | 14.6 |\n")
                .contains("| Replay p99 | 8.77 ms | < 10.0 ms |");
    }

    @Test
    void readsHowBusyTheMachineWasFromProcStat() {
        MachineCpu.Snapshot before = MachineCpu.parse("cpu  1000 10 300 5000 40 5 15 30 0 0");
        MachineCpu.Snapshot after = MachineCpu.parse("cpu  1600 10 500 5100 50 10 25 60 200 0");

        // busy 600 + 200 + 5 + 10 = 815 of 815 + 100 idle + 10 iowait + 30 steal = 955 ticks; guest is in user.
        assertThat(MachineCpu.between(before, after).busy()).isCloseTo(815.0 / 955, within(1e-12));
        assertThat(MachineCpu.between(before, after).steal()).isCloseTo(30.0 / 955, within(1e-12));
        assertThat(MachineCpu.parse("cpu 1 2 3 4").total()).as("an old kernel without the later fields").isEqualTo(10);
        assertThat(MachineCpu.read().total()).as("this machine's").isPositive();
    }

    @Test
    void saysWhenTheWarmUpEndedAtItsCapWithTheJitStillBusy() {
        assertThat(BenchReport.warmup(new BenchResult.Warmup(600.4, 0.0749, false)))
                .isEqualTo("Warmed up for 600 s, the cap; the JIT compilers still used 7.5% of the system's CPU over the "
                        + "last 30 s.");
    }

    @Test
    void writesMarkdownForAReader() throws IOException {
        BenchReport.write(result(), directory);

        String markdown = Files.readString(directory.resolve("bench-report.md"));
        assertThat(markdown).startsWith("# Benchmark report\n\n")
                .contains("Run started 2025-06-01 10:15:30 UTC on 8 cores; 32 connections; 412-byte messages; fan-out 3;"
                        + " backlog 20000 outbox rows; database PostgreSQL 17.5 (fsync=on, synchronous_commit=on);"
                        + " broker RabbitMQ 4.1.0 (quorum queues); service JVM `-Xmx256m -XX:+UseSerialGC`."
                        + " Warmed up for 270 s, until the JIT compilers used 2.1% of the system's CPU over 30 s.")
                .contains("| Order API / database ceiling | 46% | ≥ 50% | ❌ |")
                .contains("| Relay drain / broker ceiling | 69% | ≥ 60% | ✅ |")
                .contains("| 201 → final p99 | 182.7 ms | < 100.0 ms | ❌ |")
                .contains("| Replay p99 | 8.77 ms | < 10.0 ms | ✅ |")
                .contains("| System CPU per order | 100.0 ms | ≤ 20.0 ms | ❌ |")
                .contains("| Idle CPU of order-service | 0.40% of a core | ≤ 1.00% of a core | ✅ |")
                .contains("8 clients placed 600 orders in 30 s (0 failed); the last was final 40.0 s after the first "
                        + "request (0 not final): the whole pipeline finishes 15.0 orders/s.")
                .contains("| order-service | 23.0 | 2.30 |\n| inventory-service | 18.0 | 1.80 |\n| coupon-service | 13.0 | — |")
                .contains("| PostgreSQL | 21.0 | — |\n| RabbitMQ | 11.0 | — |\n| **system** | **100.0** | 4.10 |")
                .contains("| load generator (the benchmark's JVM, not part of the system) | 4.50 | |")
                .contains("| payment provider (the simulator every paid order is charged at, not part of the system) | 1.25 | |")
                .contains("| orders | 7.00 |")
                .contains("| all | 19.0 |")
                .contains("| | 4.00 | 6.00 | 6.00 |")
                .contains("(pg_stat_statements, over the same orders): 24.0 per order (`BEGIN` and `COMMIT` among "
                        + "them, two per transaction), 7.00 ms executing and 0.05 ms planning them, by PostgreSQL's "
                        + "clock (their CPU and whatever they waited for), against the 21.0 ms of CPU PostgreSQL used "
                        + "per order")
                .containsSubsequence("| orders | `insert into orders (user_id, idempotency_key) values ($1, $2) "
                        + "returning id` | 1.00 | 0.40 | 0.01 | 1.00 |", "| inventory | `update stock set reserved = "
                        + "reserved + $1 where sku_id = any($2) \\| 'x'` | 2.00 | 0.30 | 0.00 | 2.00 |")
                .contains("PostgreSQL's CPU by process, over the same orders, told from the process titles (21.0 ms "
                        + "per order in all).")
                .contains("| backends of order-service | 10.5 |\n| backends of the payment provider (its ledger) | "
                        + "1.00 |\n| WAL writer | 9.50 |\n")
                .contains("| Database ceiling | 2468 tx/s | — |")
                .contains("| Order API | 1135 orders/s | 46% |")
                .contains("| Broker ceiling | 9000 msg/s | — |")
                .contains("| Relay drain | 6250 events/s | 69% |")
                .contains("| process | database ceiling, ms per transaction | order API, ms per order |\n|---|---:|---:|\n"
                        + "| order-service | 0.00 | 0.92 |\n| PostgreSQL | 0.38 | 0.41 |\n| load generator | 0.12 | 0.31 |\n"
                        + "| RabbitMQ | — | 0.22 |\n| **all** | 0.50 | 1.86 |\n")
                .contains("| 11352 | 21.4 | 48.7 | 87.4 | 312.9 | 3 |")
                .contains("Orders arrived at 9 orders/s (60% of the capacity; the whole pipeline finishes 15.0 orders/s) "
                        + "for 30 s: 6000 placed, 0 failed, 5412 confirmed, 588 rejected, 0 not final. While they "
                        + "arrived, the machine's cores were 93% busy (2% of their time stolen by the hypervisor). The "
                        + "system used 131.4 ms of CPU and 26.0 database transactions per order, against 100.0 ms and "
                        + "19.0 in the closed loop of the cost phase.")
                .contains("| database | closed loop (cost phase) | at 9 orders/s | at 1 orders/s |\n|---|---:|---:|---:|\n"
                        + "| orders | 7.00 | 12.5 | 14.0 |\n| inventory | 4.00 | 5.00 | 6.00 |\n"
                        + "| coupons | 4.00 | 4.50 | 5.00 |\n| risk | 4.00 | 4.00 | 5.00 |\n| **all** | 19.0 | 26.0 | 30.0 |\n")
                .contains("### Unloaded\n\nThen orders arrived at 1 orders/s (7% of the capacity) for 30 s: 30 placed, "
                        + "0 failed, 0 not final. While they arrived, the machine's cores were 18% busy. What the way "
                        + "itself takes")
                .contains("| hop | at 9 orders/s | at 1 orders/s |\n|---|---:|---:|\n"
                        + "| cores busy | 93% | 18% |\n"
                        + "| system CPU per order (ms) | 131.4 | 212.6 |\n"
                        + "| 201 → final | 38.2 / 182.7 | 21.5 / 44.8 |\n"
                        + "| relay lag | 4.12 / 19.6 | 2.05 / 6.30 |\n"
                        + "| consumer lag: coupon-service | 8.40 / 37.6 | — |\n")
                .contains("| 201 → final | 6000 | 38.2 | 96.4 | 182.7 | 401.3 |")
                .contains("| relay lag | 6000 | 4.12 | 11.8 | 19.6 | 55.0 |")
                .contains("| consumer lag: inventory-service | 6000 | 9.87 | 24.3 | 41.2 | 120.5 |")
                .containsSubsequence("| OrderCreated sent | 5412 | 4.30 | 12.0 | 20.1 | 55.0 |",
                        "| order final (CONFIRMED) | 5412 | 38.2 | 96.4 | 182.7 | 401.3 |")
                .contains("| 500 | 2.31 | 5.02 | 8.77 | 14.6 |")
                .contains("| order-service | 0.40% | 298.0 |")
                .contains("| coupon-service | 0.20% | 187.5 |")
                .contains("| PostgreSQL | 0.10% | — |")
                .contains("| run | system CPU | of which JIT compilation | order-service | inventory-service | coupon-service | risk-service | PostgreSQL "
                        + "| RabbitMQ | tx per order | PostgreSQL statements: executing / planning ms per order "
                        + "| messages published / delivered per order | orders/s | resident MiB "
                        + "| end to end: cores busy / CPU per order (ms) / tx per order | 201 → final p50 / p99 (ms) |")
                .contains("every run at the same 12 orders/s (60% of the baseline's capacity)")
                .contains("| baseline | 100.0 | 4.10 | 23.0 | 18.0 | 13.0 | 14.0 | 21.0 | 11.0 | 19.0 | 7.00 / 0.05 | 4.00 / 6.00 | 16.0 | 300 "
                        + "| 71% / 150.2 / 21.0 | 150.0 / 600.0 |")
                .contains("| `context-propagation=limited` | 90.0 (−10%) | 3.60 | 20.0 | 16.0 | 11.0 | 12.0 | 20.0 | 11.0 | 19.0 "
                        + "| 6.67 / 0.05 | 4.00 / 6.00 | 20.0 (+25%) | 270 (−10%) | 64% / 121.0 / 18.0 "
                        + "| 120.0 (−20%) / 450.0 (−25%) |")
                .contains("- `context-propagation=limited`: Less context propagation. Sets "
                        + "`spring.reactor.context-propagation=limited` on every service.")
                .contains("- `inventory-lanes=1`: One lane. Sets `messaging.inbox.batch.lanes=1` on inventory-service "
                        + "alone.")
                .contains("| hop | baseline | `context-propagation=limited` | `inventory-lanes=1` |\n|---|---:|---:|---:|\n"
                        + "| relay lag | 10.0 / 40.0 | 8.00 (−20%) / 30.0 (−25%) | 10.0 / 40.0 |\n"
                        + "| consumer lag: inventory-service | 50.0 / 200.0 | 40.0 (−20%) / 150.0 (−25%) | — |\n")
                .contains("![CPU per order by process](bench-cost.png)")
                .contains("![Throughput against the ceilings](bench-throughput.png)")
                .contains("![Latency percentiles](bench-latency.png)");
        assertThat(List.of("## Targets", "## Cost per order", "## Throughput against the ceilings",
                "## Order API latency", "## End to end", "## Replays", "## Idle", "## Levers", "## Charts"))
                .allSatisfy(heading -> assertThat(markdown).contains(heading))
                .isSortedAccordingTo((a, b) -> Integer.compare(markdown.indexOf(a), markdown.indexOf(b)));
    }

    @Test
    void leavesTheLeversOutWhenNoneRan() throws IOException {
        BenchReport.write(result().withLevers(null), directory);

        assertThat(Files.readString(directory.resolve("bench-report.md"))).doesNotContain("## Levers")
                .contains("## Idle");
    }

    @Test
    void saysTheBaselineMeasuredAgainSetsNothing() throws IOException {
        BenchResult result = result();
        BenchResult.LeverRuns runs = result.levers();
        BenchResult.LeverRun first = runs.levers().get(0);
        BenchResult.LeverRun again = new BenchResult.LeverRun(Levers.BASELINE_AGAIN.name(),
                Levers.BASELINE_AGAIN.description(), Map.of(), List.of(), List.of(), first.cost(), first.endToEnd(),
                first.way(), first.load());
        BenchReport.write(result.withLevers(new BenchResult.LeverRuns(runs.warmupSeconds(), runs.endToEndRate(),
                runs.baseline(), runs.baselineEndToEnd(), runs.baselineWay(), runs.baselineLoad(), List.of(again))),
                directory);

        assertThat(Files.readString(directory.resolve("bench-report.md")))
                .contains("| `baseline, again` | 90.0 (−10%) |")
                .contains("- `baseline, again`: the normal settings once more, after the levers: how far two runs of "
                        + "the same settings land apart, the noise a lever's difference must exceed to say anything. "
                        + "Sets nothing.\n")
                .contains("vacuumed, analysed and checkpointed")
                // 90 against 100 ms of CPU, 20 against 16 orders/s, 120 / 450 against 150 / 600 ms.
                .contains("The two baselines, the same settings measured first and last, land 11% apart in system "
                        + "CPU, 25% in orders/s and 25% / 33% at 201 → final p50 / p99: a lever's difference within "
                        + "that is this machine's noise, not the lever's.");
    }

    @Test
    void drawsEveryChart() throws IOException {
        BenchCharts.write(result(), directory);

        for (String file : List.of("bench-cost.png", "bench-throughput.png", "bench-latency.png")) {
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
        assertThat(new BenchResult.Target("ratio", 50, 50, "%", AT_LEAST).met()).isTrue();
        assertThat(new BenchResult.Target("ratio", 49.9, 50, "%", AT_LEAST).met()).isFalse();
        assertThat(new BenchResult.Target("cpu", 20, 20, "ms", AT_MOST).met()).isTrue();
        assertThat(new BenchResult.Target("cpu", 20.1, 20, "ms", AT_MOST).met()).isFalse();
        assertThat(new BenchResult.Target("p99", 249.9, 250, "ms", BELOW).met()).isTrue();
        assertThat(new BenchResult.Target("p99", 250, 250, "ms", BELOW).met()).isFalse();
    }

    @Test
    void judgesTheSystemCpuWithoutTheLoadGenerator() {
        BenchResult result = result();
        List<BenchResult.Target> targets = Targets.judge(result.cost(), result.databaseCeiling(), result.orderApi(),
                result.brokerCeiling(), result.relayDrain(), result.endToEnd(), result.replays(), result.idle());

        assertThat(targets).filteredOn(target -> target.name().startsWith("System CPU per order")).singleElement()
                .satisfies(target -> {
                    assertThat(target.measured()).isCloseTo(100.0, within(1e-9));
                    assertThat(target.bound()).isEqualTo(AT_MOST);
                });
        assertThat(targets).filteredOn(target -> target.name().startsWith("Orders/s the whole pipeline"))
                .singleElement().satisfies(target -> assertThat(target.measured()).isCloseTo(15.0, within(1e-9)));
        assertThat(targets).filteredOn(target -> target.name().startsWith("End to end p99")).singleElement()
                .satisfies(target -> assertThat(target.name()).endsWith("at 9 orders/s (60% of the capacity)"));
        assertThat(targets).filteredOn(target -> target.name().startsWith("Idle CPU of")).extracting(
                BenchResult.Target::name).containsExactly("Idle CPU of order-service", "Idle CPU of inventory-service",
                        "Idle CPU of coupon-service", "Idle CPU of risk-service");
    }

    @Test
    void selectsLeversByName() {
        assertThat(Levers.select("")).isEqualTo(Levers.ALL);
        assertThat(Levers.select("none")).isEmpty();
        assertThat(Levers.select(" jit=c1 ")).extracting(Levers.Lever::name)
                .containsExactly("jit=c1");
        assertThatThrownBy(() -> Levers.select("jit=c1,faster"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no lever faster");
    }

    @Test
    void aLeverForOneServiceLeavesTheOthersAsTheyAre() {
        Levers.Lever lanes = Levers.select("inventory-lanes=8").get(0);

        assertThat(lanes.appliesTo(Service.INVENTORY)).isTrue();
        assertThat(lanes.appliesTo(Service.ORDER)).isFalse();
        assertThat(Levers.select("jit=c1").get(0).appliesTo(Service.ORDER)).isTrue();
        assertThatThrownBy(() -> new Levers.Lever("x", "y", Map.of(), List.of(), List.of("shipping-service")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no service shipping-service");
    }

    @Test
    void countsTheCpuOfAProcessTreeWithWhatItsEndedChildrenUsed() {
        // 1 is outside; 10 is the server, 11 and 12 its children, 13 a grandchild; 12 reaped children worth 7 ticks.
        Map<Long, ProcessCpu.Stat> stats = Map.of(
                1L, new ProcessCpu.Stat(1, 0, 1000, 5000),
                10L, new ProcessCpu.Stat(10, 1, 100, 40),
                11L, new ProcessCpu.Stat(11, 10, 30, 0),
                12L, new ProcessCpu.Stat(12, 10, 20, 7),
                13L, new ProcessCpu.Stat(13, 12, 3, 0),
                20L, new ProcessCpu.Stat(20, 1, 900, 0));

        assertThat(ProcessCpu.treeTicks(stats, 10)).isEqualTo(100 + 40 + 30 + 20 + 7 + 3);
        assertThat(ProcessCpu.treeTicks(stats, 12)).isEqualTo(20 + 7 + 3);
    }

    @Test
    void parsesProcStatWhateverTheCommandIsCalled() {
        ProcessCpu.Stat stat = ProcessCpu.parse("4242 (postgres: a) b (c)) S 4200 4200 4200 0 -1 4194560 1234 0 0 0 "
                + "517 83 12 9 20 0 1 0 123456 1000000 500 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n");

        assertThat(stat).isEqualTo(new ProcessCpu.Stat(4242, 4200, 517 + 83, 12 + 9));
    }

    @Test
    void tellsAJvmsCompilerThreadsFromItsOtherThreads() {
        String tail = " S 4200 4200 4200 0 -1 4194560 1234 0 0 0 517 83 12 9 20 0 1 0 123456 1000000 500\n";

        assertThat(ProcessCpu.isCompilerThread("4243 (C2 CompilerThre)" + tail)).isTrue();
        assertThat(ProcessCpu.isCompilerThread("4244 (C1 CompilerThre)" + tail)).isTrue();
        assertThat(ProcessCpu.isCompilerThread("4245 (reactor-tcp-epo)" + tail)).isFalse();
        assertThat(ProcessCpu.isCompilerThread("4246 (VM Thread)" + tail)).isFalse();
    }

    @Test
    void countsTheCompilerThreadsOfThisJvm() {
        assertThat(ProcessCpu.compilerTicks(ProcessHandle.current().pid())).isPositive();
    }

    @Test
    void readsTheBrokerCountersAndTakesAbsentOnesForZero() {
        JsonNode overview = JsonMapper.builder().build().readTree(
                "{\"message_stats\": {\"publish\": 4000, \"deliver_get\": 6012, \"ack\": 6000, \"confirm\": 4000}}");

        assertThat(BrokerMessages.parse(overview).minus(new BrokerMessages.Counts(1000, 1012, 0)))
                .isEqualTo(new BrokerMessages.Counts(3000, 5000, 6000));
        assertThat(BrokerMessages.parse(JsonMapper.builder().build().readTree("{}")))
                .isEqualTo(new BrokerMessages.Counts(0, 0, 0));
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
                "-Xmx256m -XX:+UseSerialGC", new BenchResult.Warmup(270, 0.021, true));
        BenchResult.Cost cost = cost(600, 40, 23, 18, 13, 14, 21, 11, 300);
        BenchResult.Api orderApi = new BenchResult.Api(new Throughput(11352, 10),
                new Latencies(11352, 21.43, 48.7, 87.41, 312.9), 3,
                ordered("order-service", 0.92, "PostgreSQL", 0.41, "RabbitMQ", 0.22, "load generator", 0.31),
                ordered("order-service", 0.004, "PostgreSQL", 0.38, "load generator", 0.12));
        BenchResult.EndToEnd endToEnd = new BenchResult.EndToEnd(null, 15, 9, 30, 6000, 0, 5412, 588, 0,
                new Latencies(6000, 38.2, 96.4, 182.7, 401.3), new Latencies(6000, 4.12, 11.8, 19.6, 55.0),
                Map.of("inventory-service", new Latencies(6000, 9.87, 24.3, 41.2, 120.5),
                        "coupon-service", new Latencies(6000, 8.4, 21.9, 37.6, 98.2),
                        "risk-service", new Latencies(6000, 11.2, 27.5, 45.8, 133.0)),
                ordered(OrderPath.ORDER_CREATED_SENT, new Latencies(5412, 4.3, 12.0, 20.1, 55.0),
                        OrderPath.FINAL, new Latencies(5412, 38.2, 96.4, 182.7, 401.3)),
                new BenchResult.Load(0.934, 0.021, 131.4,
                        ordered("orders", 12.5, "inventory", 5.0, "coupons", 4.5, "risk", 4.0)));
        BenchResult.EndToEnd unloaded = new BenchResult.EndToEnd(null, 15, 1, 30, 30, 0, 27, 3, 0,
                new Latencies(30, 21.5, 30.2, 44.8, 44.8), new Latencies(30, 2.05, 4.1, 6.3, 6.3),
                Map.of("inventory-service", new Latencies(30, 3.1, 5.0, 7.7, 7.7)),
                ordered(OrderPath.ORDER_CREATED_SENT, new Latencies(27, 2.2, 4.0, 5.9, 5.9),
                        OrderPath.FINAL, new Latencies(27, 21.5, 30.2, 44.8, 44.8)),
                new BenchResult.Load(0.182, 0.001, 212.6,
                        ordered("orders", 14.0, "inventory", 6.0, "coupons", 5.0, "risk", 5.0)));
        BenchResult.Idle idle = new BenchResult.Idle(30, ordered("order-service", 0.4, "inventory-service", 0.3,
                "coupon-service", 0.2, "risk-service", 0.25, "PostgreSQL", 0.1, "RabbitMQ", 2.5),
                ordered("order-service", 298 * MIB, "inventory-service", 201 * MIB, "coupon-service", 375 * MIB / 2,
                        "risk-service", 176 * MIB));
        BenchResult.LeverRuns levers = new BenchResult.LeverRuns(60, 12, cost(400, 25, 23, 18, 13, 14, 21, 11, 300),
                new Latencies(720, 150.0, 400.0, 600.0, 900.0),
                ordered("relay lag", new Latencies(720, 10.0, 20.0, 40.0, 60.0), "consumer lag: inventory-service",
                        new Latencies(720, 50.0, 90.0, 200.0, 300.0)), new BenchResult.Load(0.71, 0, 150.2, Map.of("orders", 21.0)),
                List.of(new BenchResult.LeverRun("context-propagation=limited", "Less context propagation",
                        Map.of("spring.reactor.context-propagation", "limited"), List.of(), List.of(),
                        cost(400, 20, 20, 16, 11, 12, 20, 11, 270), new Latencies(720, 120.0, 350.0, 450.0, 800.0),
                        ordered("relay lag", new Latencies(720, 8.0, 15.0, 30.0, 50.0),
                                "consumer lag: inventory-service", new Latencies(720, 40.0, 80.0, 150.0, 250.0)),
                        new BenchResult.Load(0.64, 0, 121.0, Map.of("orders", 18.0))),
                        new BenchResult.LeverRun("inventory-lanes=1", "One lane", Map.of("messaging.inbox.batch.lanes",
                                "1"), List.of(), List.of("inventory-service"), cost(400, 25, 23, 17, 13, 14, 21, 11, 300),
                                new Latencies(720, 140.0, 380.0, 590.0, 900.0),
                                ordered("relay lag", new Latencies(720, 10.0, 20.0, 40.0, 60.0)),
                                new BenchResult.Load(0.705, 0, 149.0, Map.of("orders", 21.0)))));
        List<BenchResult.Target> targets = List.of(
                new BenchResult.Target("Order API / database ceiling", 46.0, 50, "%", AT_LEAST),
                new BenchResult.Target("Relay drain / broker ceiling", 69.4, 60, "%", AT_LEAST),
                new BenchResult.Target("201 → final p99", 182.7, 100, "ms", BELOW),
                new BenchResult.Target("Replay p99", 8.77, 10, "ms", BELOW),
                new BenchResult.Target("System CPU per order", 100, 20, "ms", AT_MOST),
                new BenchResult.Target("Idle CPU of order-service", 0.4, 1, "% of a core", AT_MOST));
        return new BenchResult(setup, cost, new Throughput(24680, 10), orderApi, new Throughput(90000, 10),
                new Throughput(20000, 3.2), endToEnd, unloaded, List.of(byRate(3, 30.0, 88.0), byRate(6, 60.0, 140.0)),
                new Latencies(500, 2.31, 5.02, 8.77, 14.6),
                new Latencies(500, 3.9, 9.4, 16.2, 25.0), idle,
                levers, targets);
    }

    /** A run of the rates between the unloaded one and the 60% one: at 3 orders/s 40% busy, at 6 70%. */
    private static BenchResult.EndToEnd byRate(double rate, double p50, double p99) {
        int placed = (int) rate * 20;
        return new BenchResult.EndToEnd(null, 15, rate, 20, placed, 0, placed, 0, 0,
                new Latencies(placed, p50, p99 * 0.8, p99, p99 * 1.2), new Latencies(placed, 2.0, 3.0, 4.0, 5.0),
                Map.of(), Map.of(), new BenchResult.Load(rate == 3 ? 0.4 : 0.7, 0, rate == 3 ? 150.0 : 140.0,
                        ordered("orders", rate == 3 ? 28.0 : 27.0)));
    }

    /**
     * Orders placed in 30 s by 8 clients, final after {@code seconds}; CPU ms per order of the six processes;
     * order-service's resident MiB (the largest), the consumers' 200.
     */
    private static BenchResult.Cost cost(long orders, double seconds, double order, double inventory, double coupon,
            double risk, double postgres, double rabbit, long orderServiceMib) {
        return new BenchResult.Cost(8, 30, orders, 0, 0, seconds, ordered("order-service", order, "inventory-service",
                inventory, "coupon-service", coupon, "risk-service", risk, "PostgreSQL", postgres, "RabbitMQ", rabbit),
                ordered("order-service", order / 10, "inventory-service", inventory / 10, "coupon-service", 0.0,
                        "risk-service", 0.0, "PostgreSQL", 0.0, "RabbitMQ", 0.0),
                4.5, 1.25, ordered("orders", 7.0, "inventory", 4.0, "coupons", 4.0, "risk", 4.0),
                new BenchResult.Messages(4, 6, 6), ordered("order-service", orderServiceMib * MIB,
                        "inventory-service", 200 * MIB, "coupon-service", 200 * MIB, "risk-service", 200 * MIB),
                new BenchResult.Statements(24, postgres / 3, 0.05, List.of(new BenchResult.Statement("orders",
                        "insert into orders (user_id, idempotency_key) values ($1, $2) returning id", 1, 0.4, 0.01, 1),
                        new BenchResult.Statement("inventory", "update stock set reserved = reserved + $1 where "
                                + "sku_id = any($2) | `x`", 2, 0.3, 0, 2))),
                ordered("backends of order-service", postgres / 2, CostPhase.PROVIDER_BACKENDS, 1.0,
                        PostgresCpu.WAL_WRITER, postgres / 2 - 1.0));
    }

    /** A map in the order given, as the benchmark builds them. */
    @SuppressWarnings("unchecked")
    private static <V> Map<String, V> ordered(Object... keysAndValues) {
        Map<String, V> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], (V) keysAndValues[i + 1]);
        }
        return map;
    }
}
