package com.example.e2e.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
            .addMixIn(BenchResult.Cost.class, CostJson.class)
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
        cost(md, result.cost());
        throughput(md, result);
        orderApiLatency(md, result.orderApi());
        endToEnd(md, result.endToEnd(), result.unloaded(), result.cost());
        byRate(md, result);
        replays(md, result.replays(), result.replayWarmup());
        idle(md, result.idle());
        if (result.levers() != null) {
            levers(md, result.levers());
        }
        md.append("## Charts\n\n")
                .append("![CPU per order by process](").append(BenchCharts.COST_FILE).append(")\n\n")
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
                + "database %s; broker %s; service JVM `%s`. %s", STARTED.format(setup.startedAt()), setup.cores(),
                setup.connections(), setup.messageBytes(), setup.fanOut(), setup.backlog(), setup.database(),
                setup.broker(), setup.serviceJvm(), warmup(setup.warmup()));
    }

    static String warmup(BenchResult.Warmup warmup) {
        String share = format("%.1f%%", warmup.jitShare() * 100);
        return warmup.quiet()
                ? format("Warmed up for %d s, until the JIT compilers used %s of the system's CPU over %d s.",
                        Math.round(warmup.seconds()), share, Bench.WARM_UP_WINDOW.toSeconds())
                : format("Warmed up for %d s, the cap; the JIT compilers still used %s of the system's CPU over the last "
                        + "%d s.", Math.round(warmup.seconds()), share, Bench.WARM_UP_WINDOW.toSeconds());
    }

    private static void targets(StringBuilder md, BenchResult result) {
        md.append("## Targets\n\n| target | measured | bar | met |\n|---|---:|---:|:---:|\n");
        for (BenchResult.Target target : result.targets()) {
            md.append("| ").append(cell(target.name()))
                    .append(" | ").append(figure(target.measured(), target.unit()))
                    .append(" | ").append(target.bound().symbol()).append(' ').append(figure(target.bar(), target.unit()))
                    .append(" | ").append(target.met() ? "✅" : "❌").append(" |\n");
        }
        md.append('\n');
    }

    private static void cost(StringBuilder md, BenchResult.Cost cost) {
        md.append("## Cost per order\n\n")
                .append(format("%d clients placed %d orders in %.0f s (%d failed); the last was final %.1f s after the "
                        + "first request (%d not final): the whole pipeline finishes %s orders/s. What each process "
                        + "used from the first request until then, per order:\n\n", cost.clients(), cost.orders(),
                        cost.placingSeconds(), cost.failed(), cost.secondsToFinal(), cost.notFinal(),
                        decimal(cost.capacityPerSecond())))
                .append("| process | CPU ms per order | of which JIT compilation |\n|---|---:|---:|\n");
        cost.cpuMillisPerOrder().forEach((process, millis) -> {
            double jit = cost.jitCpuMillisPerOrder().getOrDefault(process, 0.0);
            md.append("| ").append(cell(process)).append(" | ").append(ms(millis)).append(" | ")
                    .append(jit > 0 ? ms(jit) : "—").append(" |\n");
        });
        md.append("| **system** | **").append(ms(cost.systemCpuMillisPerOrder())).append("** | ")
                .append(ms(cost.systemJitCpuMillisPerOrder())).append(" |\n")
                .append("| load generator (the benchmark's JVM, not part of the system) | ")
                .append(ms(cost.loadGeneratorCpuMillisPerOrder())).append(" | |\n")
                .append("| payment provider (the simulator every paid order is charged at, not part of the system) | ")
                .append(ms(cost.providerCpuMillisPerOrder())).append(" | |\n\n")
                .append("JIT compilation is the services' compiler threads turning hot code into machine code: it "
                        + "ends once a JVM has compiled what the load runs, so a large share says the warm-up was too "
                        + "short for the figure above to be the steady cost.\n\n")
                .append("| database | transactions per order |\n|---|---:|\n");
        cost.transactionsPerOrder().forEach((database, count) -> md.append("| ").append(cell(database)).append(" | ")
                .append(decimal(count)).append(" |\n"));
        BenchResult.Messages messages = cost.messagesPerOrder();
        md.append("| all | ").append(decimal(cost.transactionsPerOrderInAll())).append(" |\n\n")
                .append("| broker messages per order | published | delivered | acknowledged |\n|---|---:|---:|---:|\n")
                .append("| | ").append(decimal(messages.published())).append(" | ").append(decimal(messages.delivered()))
                .append(" | ").append(decimal(messages.acknowledged())).append(" |\n\n");
        statements(md, cost);
    }

    private static void statements(StringBuilder md, BenchResult.Cost cost) {
        BenchResult.Statements statements = cost.statements();
        double postgres = cost.cpuMillisPerOrder().getOrDefault(CostPhase.POSTGRESQL, 0.0);
        md.append(format("The services' statements inside PostgreSQL (pg_stat_statements, over the same orders): %s "
                + "per order (`BEGIN` and `COMMIT` among them, two per transaction), %s ms executing and %s ms "
                + "planning them, by PostgreSQL's clock (their CPU and whatever they waited for), against the %s ms of "
                + "CPU PostgreSQL used per order: the rest is its work per round trip and per transaction outside what "
                + "it times as a statement (the protocol, the commit itself with its WAL flush, which comes after "
                + "`COMMIT`'s own time, the rows sent back). Those that took the most:\n\n",
                decimal(statements.callsPerOrder()),
                ms(statements.executionMillisPerOrder()), ms(statements.planningMillisPerOrder()), ms(postgres)))
                .append("| database | statement | calls per order | execution ms per order | planning ms per order "
                        + "| rows per order |\n|---|---|---:|---:|---:|---:|\n");
        for (BenchResult.Statement statement : statements.top()) {
            md.append("| ").append(cell(statement.database())).append(" | `")
                    .append(cell(statement.query().replace('`', '\''))).append("` | ")
                    .append(decimal(statement.callsPerOrder())).append(" | ")
                    .append(ms(statement.executionMillisPerOrder())).append(" | ")
                    .append(ms(statement.planningMillisPerOrder())).append(" | ")
                    .append(decimal(statement.rowsPerOrder())).append(" |\n");
        }
        md.append('\n');
        postgresProcesses(md, cost);
    }

    private static void postgresProcesses(StringBuilder md, BenchResult.Cost cost) {
        Map<String, Double> processes = cost.postgresCpuMillisPerOrder();
        if (processes == null || processes.isEmpty()) {
            return;
        }
        md.append(format("PostgreSQL's CPU by process, over the same orders, told from the process titles (%s ms per "
                + "order in all). A backend or autovacuum worker that ended in between counts under the postmaster; "
                + "the payment provider's backends are the simulator's ledger, which shares this PostgreSQL and so "
                + "its share of the system's CPU, though the provider is not part of the system:\n\n",
                ms(BenchResult.sum(processes))))
                .append("| PostgreSQL process | CPU ms per order |\n|---|---:|\n");
        processes.forEach((process, millis) -> md.append("| ").append(cell(process)).append(" | ").append(ms(millis))
                .append(" |\n"));
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
        ceilingCpu(md, result.orderApi());
    }

    /**
     * Where the CPU went in the database ceiling's closed loop and in the order API's: both share the machine's cores
     * with everything listed, so a process that costs more per operation lowers the rate.
     */
    private static void ceilingCpu(StringBuilder md, BenchResult.Api api) {
        if (api.cpuMillisPerOrder().isEmpty() && api.ceilingCpuMillisPerTransaction().isEmpty()) {
            return;
        }
        md.append("Where the CPU went over the two closed loops' measured windows, the load generator included (the "
                + "consumers paused in the order API's: RabbitMQ takes the `OrderCreated` events order-service's relay "
                + "publishes, and keeps them):\n\n")
                .append("| process | database ceiling, ms per transaction | order API, ms per order |\n|---|---:|---:|\n");
        Set<String> processes = new LinkedHashSet<>(api.ceilingCpuMillisPerTransaction().keySet());
        processes.addAll(api.cpuMillisPerOrder().keySet());
        processes.forEach(process -> md.append("| ").append(cell(process)).append(" | ")
                .append(msOrDash(api.ceilingCpuMillisPerTransaction().get(process))).append(" | ")
                .append(msOrDash(api.cpuMillisPerOrder().get(process))).append(" |\n"));
        md.append("| **all** | ").append(ms(BenchResult.sum(api.ceilingCpuMillisPerTransaction()))).append(" | ")
                .append(ms(BenchResult.sum(api.cpuMillisPerOrder()))).append(" |\n\n");
    }

    private static String msOrDash(Double millis) {
        return millis == null ? "—" : ms(millis);
    }

    private static String rateRow(String name, Throughput throughput, String unit, String ratio) {
        return "| " + name + " | " + rate(throughput.perSecond()) + " " + unit + " | " + ratio + " |\n";
    }

    private static void orderApiLatency(StringBuilder md, BenchResult.Api api) {
        md.append("## Order API latency (closed loop)\n\n")
                .append("| requests | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) | errors |\n|---:|---:|---:|---:|---:|---:|\n")
                .append("| ").append(percentiles(api.latency())).append(" | ").append(api.errors()).append(" |\n\n");
    }

    private static void endToEnd(StringBuilder md, BenchResult.EndToEnd endToEnd, BenchResult.EndToEnd unloaded,
            BenchResult.Cost cost) {
        md.append("## End to end\n\n")
                .append(format("Orders arrived at %s orders/s (%s; the whole pipeline finishes %s orders/s) for %.0f s: "
                        + "%d placed, %d failed, %d confirmed, %d rejected, %d not final. %s\n\n",
                        rate(endToEnd.offeredPerSecond()), endToEnd.requestedPerSecond() == null
                                ? percent(EndToEnd.UTILISATION) + " of the capacity" : "as bench.rate asked",
                        decimal(endToEnd.capacityPerSecond()), endToEnd.seconds(), endToEnd.placed(), endToEnd.failed(),
                        endToEnd.confirmed(), endToEnd.rejected(), endToEnd.notFinal(), busy(endToEnd.load())
                                + format(" The system used %s ms of CPU and %s database transactions per order, "
                                        + "against %s ms and %s in the closed loop of the cost phase.",
                                        ms(endToEnd.load().cpuMillisPerOrder()),
                                        decimal(endToEnd.load().transactionsPerOrderInAll()),
                                        ms(cost.systemCpuMillisPerOrder()), decimal(cost.transactionsPerOrderInAll()))))
                .append("| latency | count | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |\n|---|---:|---:|---:|---:|---:|\n")
                .append(latencyRow("201 → final", endToEnd.createdToFinal()))
                .append(latencyRow("relay lag", endToEnd.relayLag()));
        new TreeMap<>(endToEnd.consumerLag())
                .forEach((service, lag) -> md.append(latencyRow("consumer lag: " + cell(service), lag)));
        md.append('\n');
        transactions(md, cost, endToEnd, unloaded);
        if (!endToEnd.path().isEmpty()) {
            md.append("Where a confirmed order's time goes: when each step of its way was reached, in ms after its 201 "
                    + "(read from the databases; a jump between two rows is what that hop cost):\n\n")
                    .append("| reached | count | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |\n|---|---:|---:|---:|---:|---:|\n");
            endToEnd.path().forEach((milestone, since) -> md.append(latencyRow(cell(milestone), since)));
            md.append('\n');
        }
        if (unloaded != null) {
            unloaded(md, endToEnd, unloaded);
        }
    }

    /**
     * Database transactions per order by database: in the closed loop, where what arrives while a batch is applied
     * makes up the next one, beside the end-to-end runs, where orders arrive one by one.
     */
    private static void transactions(StringBuilder md, BenchResult.Cost cost, BenchResult.EndToEnd endToEnd,
            BenchResult.EndToEnd unloaded) {
        md.append("Database transactions per order, every order placed in each run counted, the services' upkeep in "
                + "that time included:\n\n| database | closed loop (cost phase) | at ")
                .append(rate(endToEnd.offeredPerSecond())).append(" orders/s |");
        if (unloaded != null) {
            md.append(" at ").append(rate(unloaded.offeredPerSecond())).append(" orders/s |");
        }
        md.append("\n|---|---:|---:|").append(unloaded != null ? "---:|" : "").append('\n');
        Set<String> databases = new LinkedHashSet<>(cost.transactionsPerOrder().keySet());
        databases.addAll(endToEnd.load().transactionsPerOrder().keySet());
        for (String database : databases) {
            transactionRow(md, cell(database), cost.transactionsPerOrder().get(database),
                    endToEnd.load().transactionsPerOrder().get(database),
                    unloaded == null ? null : unloaded.load().transactionsPerOrder().get(database), unloaded != null);
        }
        transactionRow(md, "**all**", cost.transactionsPerOrderInAll(), endToEnd.load().transactionsPerOrderInAll(),
                unloaded == null ? null : unloaded.load().transactionsPerOrderInAll(), unloaded != null);
        md.append('\n');
    }

    private static void transactionRow(StringBuilder md, String name, Double closedLoop, Double loaded, Double unloaded,
            boolean withUnloaded) {
        md.append("| ").append(name).append(" | ").append(closedLoop == null ? "—" : decimal(closedLoop)).append(" | ")
                .append(loaded == null ? "—" : decimal(loaded)).append(" |");
        if (withUnloaded) {
            md.append(' ').append(unloaded == null ? "—" : decimal(unloaded)).append(" |");
        }
        md.append('\n');
    }

    /**
     * The unloaded run beside the loaded one, hop by hop: what the way itself takes, and how much a busy machine adds
     * to each hop.
     */
    private static void unloaded(StringBuilder md, BenchResult.EndToEnd loaded, BenchResult.EndToEnd unloaded) {
        md.append("### Unloaded\n\n")
                .append(format("Then orders arrived at %s orders/s (%s of the capacity) for %.0f s: %d placed, "
                        + "%d failed, %d not final. %s What the way itself takes, where little of it is spent waiting in a queue, "
                        + "beside the run above, p50 / p99 in ms:\n\n", rate(unloaded.offeredPerSecond()),
                        percent(unloaded.offeredPerSecond() / unloaded.capacityPerSecond()), unloaded.seconds(),
                        unloaded.placed(), unloaded.failed(), unloaded.notFinal(), busy(unloaded.load())))
                .append(format("| hop | at %s orders/s | at %s orders/s |\n|---|---:|---:|\n",
                        rate(loaded.offeredPerSecond()), rate(unloaded.offeredPerSecond())))
                .append("| cores busy | ").append(percent(loaded.load().busy())).append(" | ")
                .append(percent(unloaded.load().busy())).append(" |\n")
                .append("| system CPU per order (ms) | ").append(ms(loaded.load().cpuMillisPerOrder())).append(" | ")
                .append(ms(unloaded.load().cpuMillisPerOrder())).append(" |\n")
                .append("| 201 → final | ").append(p50AndP99(loaded.createdToFinal(), null)).append(" | ")
                .append(p50AndP99(unloaded.createdToFinal(), null)).append(" |\n");
        Set<String> hops = new LinkedHashSet<>(loaded.way().keySet());
        hops.addAll(unloaded.way().keySet());
        for (String hop : hops) {
            md.append("| ").append(cell(hop)).append(" | ").append(p50AndP99(loaded.way().get(hop), null)).append(" | ")
                    .append(p50AndP99(unloaded.way().get(hop), null)).append(" |\n");
        }
        md.append('\n');
    }

    /**
     * Every end-to-end run of the report by its arrival rate: how the p99 grows with the load, and the highest rate at
     * which it stayed under its bar, every slower run's too. The bar is judged at {@link EndToEnd#UTILISATION} of the
     * capacity; this says where below that it still holds. Shown only when the run measured rates between the two.
     */
    private static void byRate(StringBuilder md, BenchResult result) {
        if (result.byRate().isEmpty()) {
            return;
        }
        List<BenchResult.EndToEnd> runs = new ArrayList<>(result.byRate());
        if (result.unloaded() != null) {
            runs.add(result.unloaded());
        }
        runs.add(result.endToEnd());
        runs.sort(Comparator.comparingDouble(BenchResult.EndToEnd::offeredPerSecond));
        String bar = format("p99 < %s ms", rate(Targets.END_TO_END_P99_MS));
        md.append("### By arrival rate\n\n")
                .append(format("Then orders arrived at %s more rates for %.0f s each, counted after a warm-up as above, "
                        + "every run's orders final before the next began. All the runs by their rate, %s above among "
                        + "them:\n\n", result.byRate().size(), result.byRate().get(0).seconds(),
                        result.unloaded() == null ? "the one" : "the two"))
                .append("| orders/s | of the capacity | cores busy | system CPU per order (ms) | transactions per order "
                        + "| 201 → final p50 (ms) | p99 (ms) | ").append(bar).append(" |\n")
                .append("|---:|---:|---:|---:|---:|---:|---:|:---:|\n");
        BenchResult.EndToEnd highest = null;
        boolean held = true;
        for (BenchResult.EndToEnd run : runs) {
            boolean under = run.notFinal() == 0 && run.createdToFinal().p99() < Targets.END_TO_END_P99_MS;
            held &= under;
            if (held) {
                highest = run;
            }
            md.append("| ").append(rate(run.offeredPerSecond())).append(" | ")
                    .append(percent(run.offeredPerSecond() / run.capacityPerSecond())).append(" | ")
                    .append(percent(run.load().busy())).append(" | ").append(ms(run.load().cpuMillisPerOrder()))
                    .append(" | ").append(decimal(run.load().transactionsPerOrderInAll())).append(" | ")
                    .append(ms(run.createdToFinal().p50())).append(" | ").append(ms(run.createdToFinal().p99()))
                    .append(" | ").append(under ? "✅" : "❌").append(" |\n");
        }
        md.append('\n').append(highest == null
                ? format("The %s held at none of these rates.", bar)
                : format("The %s held up to %s orders/s, %s of the closed loop's capacity, and at every slower rate.",
                        bar, rate(highest.offeredPerSecond()), percent(highest.offeredPerSecond()
                                / highest.capacityPerSecond()))).append("\n\n");
    }

    /** "While they arrived, the machine's cores were 93% busy (2% of their time stolen by the hypervisor)." */
    private static String busy(BenchResult.Load load) {
        return format("While they arrived, the machine's cores were %s busy%s.", percent(load.busy()),
                load.steal() >= 0.005 ? format(" (%s of their time stolen by the hypervisor)", percent(load.steal()))
                        : "");
    }

    private static String latencyRow(String name, Latencies latencies) {
        return "| " + name + " | " + percentiles(latencies) + " |\n";
    }

    private static void replays(StringBuilder md, Latencies replays, Latencies warmup) {
        md.append("## Replays\n\n");
        if (warmup != null) {
            md.append("Order-service has answered new orders only until the first replay; the first replays, not "
                    + "counted, warm up what only a replay runs.\n\n");
        }
        md.append("| replays | count | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |\n|---|---:|---:|---:|---:|---:|\n");
        if (warmup != null) {
            md.append("| the first (warm-up, not counted) | ").append(percentiles(warmup)).append(" |\n");
        }
        md.append("| counted | ").append(percentiles(replays)).append(" |\n\n");
    }

    private static void idle(StringBuilder md, BenchResult.Idle idle) {
        md.append("## Idle\n\n")
                .append(format("%.0f s without load, after the replays.\n\n", idle.seconds()))
                .append("| process | CPU, % of a core | resident MiB |\n|---|---:|---:|\n");
        idle.cpuPercentOfCore().forEach((process, percent) -> {
            Long bytes = idle.residentBytes().get(process);
            md.append("| ").append(cell(process)).append(" | ").append(format("%.2f%%", percent)).append(" | ")
                    .append(bytes == null ? "—" : format("%.1f", bytes / MIB)).append(" |\n");
        });
        md.append('\n');
    }

    private static void levers(StringBuilder md, BenchResult.LeverRuns runs) {
        BenchResult.Cost baseline = runs.baseline();
        md.append("## Levers\n\n")
                .append(format("Each run restarts every service, with the lever's settings where it has them (the "
                        + "databases vacuumed, analysed and checkpointed while the services are down), warms "
                        + "the system up for at least %.0f s and until its JIT compilers are quiet, as before the first "
                        + "phase, then measures "
                        + "as the cost phase does (%.0f s of orders, counted until all are final), then end to end as "
                        + "above, every run at the same %.0f orders/s (60%% of the baseline's capacity); the baseline is "
                        + "the same with the normal settings, and where it runs again after the levers, how far two "
                        + "runs of the same settings land apart tells how large a lever's difference must be to say "
                        + "anything. CPU in ms per order; resident memory of the largest "
                        + "service when the last order of the cost phase became final; end to end: the share of the "
                        + "machine's cores in use while its orders arrived (near 100%%, a run's latency is mostly "
                        + "queues) and the system's CPU per order at that rate.\n\n",
                        runs.warmupSeconds(), baseline.placingSeconds(), runs.endToEndRate()))
                .append("| run | system CPU | of which JIT compilation");
        baseline.cpuMillisPerOrder().keySet().forEach(process -> md.append(" | ").append(cell(process)));
        md.append(" | tx per order | PostgreSQL statements: executing / planning ms per order "
                + "| messages published / delivered per order | orders/s | resident MiB "
                + "| end to end: cores busy / CPU per order (ms) / tx per order | 201 → final p50 / p99 (ms) |\n|---");
        md.append("|---:".repeat(baseline.cpuMillisPerOrder().size() + 9)).append("|\n");
        leverRow(md, "baseline", baseline, runs.baselineEndToEnd(), runs.baselineLoad(), baseline,
                runs.baselineEndToEnd());
        runs.levers().forEach(lever -> leverRow(md, "`" + cell(lever.name()) + "`", lever.cost(), lever.endToEnd(),
                lever.load(), baseline, runs.baselineEndToEnd()));
        md.append('\n');
        runs.levers().stream().filter(lever -> lever.name().equals(Levers.BASELINE_AGAIN.name())).findFirst()
                .ifPresent(again -> md.append(format("The two baselines, the same settings measured first and last, "
                        + "land %s apart in system CPU, %s in orders/s and %s / %s at 201 → final p50 / p99: a "
                        + "lever's difference within that is this machine's noise, not the lever's.%n%n",
                        spread(again.cost().systemCpuMillisPerOrder(), baseline.systemCpuMillisPerOrder()),
                        spread(again.cost().capacityPerSecond(), baseline.capacityPerSecond()),
                        spread(again.endToEnd().p50(), runs.baselineEndToEnd().p50()),
                        spread(again.endToEnd().p99(), runs.baselineEndToEnd().p99()))));
        for (BenchResult.LeverRun lever : runs.levers()) {
            List<String> changes = new ArrayList<>();
            lever.properties().forEach((property, value) -> changes.add("`" + property + "=" + value + "`"));
            lever.jvmOptions().forEach(option -> changes.add("JVM `" + option + "`"));
            md.append("- `").append(lever.name()).append("`: ").append(lever.description());
            if (changes.isEmpty()) {
                md.append(". Sets nothing.\n");
                continue;
            }
            md.append(". Sets ").append(String.join(", ", changes)).append(lever.services().isEmpty()
                    ? " on every service" : " on " + String.join(" and ", lever.services()) + " alone").append(".\n");
        }
        md.append('\n');
        leverWays(md, runs);
    }

    /**
     * Each run's end to end hop by hop, side by side: the lever pair's 201 → final alone swings between runs of the
     * same code, the hop a lever changes much less.
     */
    private static void leverWays(StringBuilder md, BenchResult.LeverRuns runs) {
        Set<String> hops = new LinkedHashSet<>(runs.baselineWay().keySet());
        runs.levers().forEach(lever -> hops.addAll(lever.way().keySet()));
        if (hops.isEmpty()) {
            return;
        }
        md.append("Where each run's end-to-end orders spent their time, hop by hop, p50 / p99 in ms: the relay and "
                + "consumer lags, then when a confirmed order reached each step after its 201 (as under End to end):\n\n")
                .append("| hop | baseline");
        runs.levers().forEach(lever -> md.append(" | `").append(cell(lever.name())).append('`'));
        md.append(" |\n|---").append("|---:".repeat(runs.levers().size() + 1)).append("|\n");
        for (String hop : hops) {
            Latencies baseline = runs.baselineWay().get(hop);
            md.append("| ").append(cell(hop)).append(" | ").append(p50AndP99(baseline, null));
            runs.levers().forEach(lever -> md.append(" | ").append(p50AndP99(lever.way().get(hop), baseline)));
            md.append(" |\n");
        }
        md.append('\n');
    }

    /** "p50 / p99", each with its change against {@code baseline} when there is one; "—" when not measured. */
    private static String p50AndP99(Latencies latencies, Latencies baseline) {
        if (latencies == null || latencies.count() == 0) {
            return "—";
        }
        boolean compared = baseline != null && baseline.count() > 0;
        return ms(latencies.p50()) + (compared ? change(latencies.p50(), baseline.p50()) : "") + " / "
                + ms(latencies.p99()) + (compared ? change(latencies.p99(), baseline.p99()) : "");
    }

    private static void leverRow(StringBuilder md, String name, BenchResult.Cost cost, Latencies endToEnd,
            BenchResult.Load load, BenchResult.Cost baseline, Latencies baselineEndToEnd) {
        md.append("| ").append(name).append(" | ").append(ms(cost.systemCpuMillisPerOrder()))
                .append(change(cost.systemCpuMillisPerOrder(), baseline.systemCpuMillisPerOrder()))
                .append(" | ").append(ms(cost.systemJitCpuMillisPerOrder()));
        cost.cpuMillisPerOrder().values().forEach(millis -> md.append(" | ").append(ms(millis)));
        md.append(" | ").append(decimal(cost.transactionsPerOrderInAll()))
                .append(" | ").append(ms(cost.statements().executionMillisPerOrder())).append(" / ")
                .append(ms(cost.statements().planningMillisPerOrder()))
                .append(" | ").append(decimal(cost.messagesPerOrder().published())).append(" / ")
                .append(decimal(cost.messagesPerOrder().delivered()))
                .append(" | ").append(decimal(cost.capacityPerSecond()))
                .append(change(cost.capacityPerSecond(), baseline.capacityPerSecond()))
                .append(" | ").append(format("%.0f", cost.largestResidentBytes() / MIB))
                .append(change(cost.largestResidentBytes(), baseline.largestResidentBytes()))
                .append(" | ").append(percent(load.busy())).append(" / ").append(ms(load.cpuMillisPerOrder()))
                .append(" / ").append(decimal(load.transactionsPerOrderInAll()))
                .append(" | ").append(ms(endToEnd.p50())).append(change(endToEnd.p50(), baselineEndToEnd.p50()))
                .append(" / ").append(ms(endToEnd.p99())).append(change(endToEnd.p99(), baselineEndToEnd.p99()))
                .append(" |\n");
    }

    /** " (−5%)" against the baseline; nothing for the baseline itself. */
    private static String change(double value, double baseline) {
        if (value == baseline || baseline == 0) {
            return "";
        }
        return format(" (%+.0f%%)", (value / baseline - 1) * 100).replace('-', '−');
    }

    /** How far apart two figures of the same kind are, in percent of the smaller. */
    private static String spread(double one, double other) {
        double smaller = Math.min(one, other);
        return smaller <= 0 ? "—" : format("%.0f%%", (Math.max(one, other) / smaller - 1) * 100);
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
            case "% of a core" -> format("%.2f%% of a core", value);
            default -> format("%.1f %s", value, unit);
        };
    }

    static String rate(double perSecond) {
        return format("%.0f", perSecond);
    }

    /** Counts per order and rates that are small numbers: two decimals below 10, one above. */
    static String decimal(double value) {
        return format(value < 10 ? "%.2f" : "%.1f", value);
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

    /** Adds the derived figures to every serialised {@link BenchResult.Cost}. */
    private interface CostJson {

        @JsonProperty("capacity_per_second")
        double capacityPerSecond();

        @JsonProperty("system_cpu_millis_per_order")
        double systemCpuMillisPerOrder();

        @JsonProperty("transactions_per_order_in_all")
        double transactionsPerOrderInAll();
    }

    /** Adds the verdict to every serialised {@link BenchResult.Target}. */
    private interface TargetJson {

        @JsonProperty("met")
        boolean met();
    }
}
