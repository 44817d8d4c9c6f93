package com.example.e2e.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.e2e.topology.HarnessPaths;
import com.example.e2e.topology.ProcessTopology;

/**
 * {@code ./stack bench}: the four services with production settings (no harness overrides, the full JIT)
 * on a throw-away PostgreSQL that flushes every commit (fsync on) and a throw-away RabbitMQ node, measured
 * against the ceilings of that database and broker; writes {@code target/bench-report.md},
 * {@code bench-report.json} and the charts, then measures the levers ({@link Levers}) and writes them again with
 * those. Judging the targets is the report's job: on a shared machine a
 * slow run is not a failed build. What fails the run is a wrong answer: an order that never becomes final,
 * a replay that returns another order, a request the API refused.
 *
 * <p>Excluded from the default build (tag "benchmark"); see {@code ./stack bench} for the command.
 */
@Tag("benchmark")
class BenchmarkIntegrationTests {

    private static final Logger log = LoggerFactory.getLogger(BenchmarkIntegrationTests.class);
    /**
     * The services' JVM as {@code ./stack up} runs it (the container images size the heap from their memory limit
     * instead); C2 is on again (the harness stops at C1).
     */
    private static final List<String> SERVICE_JVM = serviceJvm();

    /** The services run on this JVM's runtime: the native-memory trim exists from 17.0.9 on, as in {@code ./stack}. */
    private static List<String> serviceJvm() {
        List<String> options = new ArrayList<>(List.of("-Xmx256m", "-Xmn40m", "-XX:+UseSerialGC",
                "-XX:PerfDataSamplingInterval=1000"));
        if (Runtime.version().compareTo(Runtime.Version.parse("17.0.9")) >= 0) {
            options.add("-XX:TrimNativeHeapInterval=5000");
        }
        options.add("-XX:TieredStopAtLevel=4");
        return List.copyOf(options);
    }

    @Test
    void measuresTheSystemAgainstTheCeilingsOfItsDatabaseAndBroker() throws Exception {
        HarnessPaths paths = HarnessPaths.fromSystemProperties();
        BenchSettings settings = BenchSettings.fromSystemProperties();
        try (ProcessTopology topology = new ProcessTopology(paths, service -> Map.of(),
                new ProcessTopology.Options(SERVICE_JVM, true))) {
            topology.start();
            Bench bench = new Bench(topology, paths, settings, String.join(" ", SERVICE_JVM));
            BenchResult result = bench.run();
            write(result, paths);
            assertThat(result.cost().failed()).as("cost phase requests not answered 201").isZero();
            assertThat(result.cost().notFinal()).as("cost phase orders never final").isZero();
            assertThat(result.orderApi().errors()).as("order API requests not answered 201").isZero();
            assertThat(result.endToEnd().notFinal()).as("orders not final %s after the last arrival",
                    "two minutes").isZero();
            assertThat(result.endToEnd().failed()).as("end-to-end requests not answered 201").isZero();

            if (!settings.levers().isEmpty()) {
                // The report above stands should a lever keep the services from starting.
                result = result.withLevers(bench.levers());
                write(result, paths);
                for (BenchResult.Cost cost : costs(result.levers())) {
                    assertThat(cost.failed()).as("lever run requests not answered 201").isZero();
                    assertThat(cost.notFinal()).as("lever run orders never final").isZero();
                }
            }
        }
    }

    private static void write(BenchResult result, HarnessPaths paths) {
        BenchReport.write(result, paths.output());
        BenchCharts.write(result, paths.output());
        log.info("[bench] report: {}", paths.output().resolve("bench-report.md"));
    }

    private static List<BenchResult.Cost> costs(BenchResult.LeverRuns runs) {
        List<BenchResult.Cost> costs = new ArrayList<>(List.of(runs.baseline()));
        runs.levers().forEach(lever -> costs.add(lever.cost()));
        return costs;
    }
}
