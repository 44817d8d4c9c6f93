package com.example.e2e.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.example.e2e.topology.Service;

/**
 * Settings that might make an order cheaper, each measured by the benchmark's lever phase: every service restarted
 * with the lever's settings, warmed up, and the cost of an order measured as for the baseline (see {@link Bench}).
 * A lever goes here once; {@code -Dbench.levers=a,b} (or {@code ./stack bench --levers a,b}) picks some of them.
 */
final class Levers {

    /**
     * @param name        how {@code bench.levers} and the report name it
     * @param description what it changes, and why it might pay
     * @param properties  Spring properties given to the lever's services (as command-line arguments, over all others)
     * @param jvmOptions  JVM options given to the lever's services, after the others (a later option wins)
     * @param services    the services that get them, by module name; empty for every service
     */
    record Lever(String name, String description, Map<String, String> properties, List<String> jvmOptions,
            List<String> services) {

        /** A lever for every service. */
        Lever(String name, String description, Map<String, String> properties, List<String> jvmOptions) {
            this(name, description, properties, jvmOptions, List.of());
        }

        Lever {
            List<String> known = Arrays.stream(Service.ours()).map(Service::moduleName).toList();
            services.stream().filter(service -> !known.contains(service)).findFirst().ifPresent(unknown -> {
                throw new IllegalArgumentException("lever " + name + ": no service " + unknown + "; there are " + known);
            });
            services = List.copyOf(services);
        }

        /** Whether the lever's settings go to this service. */
        boolean appliesTo(Service service) {
            return services.isEmpty() || services.contains(service.moduleName());
        }
    }

    /**
     * The baseline measured once more after the levers (bench.lever-baseline-again): how far two runs with the same
     * settings land apart in the same benchmark, the noise a lever's difference must exceed to mean something.
     */
    static final Lever BASELINE_AGAIN = new Lever("baseline, again",
            "the normal settings once more, after the levers: how far two runs of the same settings land apart, the "
                    + "noise a lever's difference must exceed to say anything",
            Map.of(), List.of());

    static final List<Lever> ALL = List.of(
            new Lever("relay-lanes=1",
                    "one relay cycle at a time in every service (messaging.relay.lanes=1), as before the tenth round: "
                            + "where now an event committed while a cycle waits for its confirms is claimed by a second "
                            + "cycle at once, it then waited for that cycle to end and for a cycle of its own",
                    Map.of("messaging.relay.lanes", "1"), List.of()),
            new Lever("relay-lanes=4",
                    "four relay cycles at a time in every service (messaging.relay.lanes=4) instead of two: an event "
                            + "committed while both cycles wait for their confirms is claimed by a third at once, for "
                            + "more cycles, each with a smaller batch",
                    Map.of("messaging.relay.lanes", "4"), List.of()),
            new Lever("inbox-batch=1",
                    "one transaction per delivery in every inbox (messaging.inbox.batch.size=1), as before batch "
                            + "consumption became the default: where now what arrives while a batch is being applied "
                            + "makes up the next one, applied in one transaction, one statement claiming every id",
                    Map.of("messaging.inbox.batch.size", "1"), List.of()),
            new Lever("inbox-lanes=2",
                    "two inbox lanes in every service (messaging.inbox.batch.lanes=2), the default of the twelfth "
                            + "round, where now there are eight: fewer, fuller batches and fewer transactions, but at "
                            + "60% of the capacity order-service's replies queue in the lanes",
                    Map.of("messaging.inbox.batch.lanes", "2"), List.of()),
            new Lever("inventory-lanes=8",
                    "eight inbox lanes in inventory-service (messaging.inbox.batch.lanes=8), the starters' default and "
                            + "inventory's before the eighteenth round, where now it has one: every batch of the "
                            + "benchmark's orders wants most of the 20 skus' stock rows, so eight lanes wait for each "
                            + "other inside PostgreSQL, each with a transaction open, where one applies what arrives "
                            + "meanwhile as one batch",
                    Map.of("messaging.inbox.batch.lanes", "8"), List.of(), List.of("inventory-service")),
            new Lever("inventory-write-behind=off",
                    "inventory-service's batches without the write-behind of the twenty-third round "
                            + "(inventory.reservations.write-behind=false): each order of a batch locks and reads its "
                            + "stock again, inserts its reservation and moves its units, three statements, where now "
                            + "it is decided against the stock the batch locked ahead and the batch writes all its "
                            + "reservations in one statement and their units in one more, just before it commits",
                    Map.of("inventory.reservations.write-behind", "false"), List.of(), List.of("inventory-service")),
            new Lever("order-inbox-linger=0",
                    "order-service's inbox applies a lone delivery at once (messaging.inbox.batch.linger=0), as before "
                            + "the twenty-eighth round, where now a lane with nothing in flight waits 10 ms after a "
                            + "reply before it takes the batch: an order's three replies come from three services a "
                            + "few milliseconds apart, and applied together they are one transaction instead of up to "
                            + "three (the payment's result, which arrives alone, goes at once either way)",
                    Map.of("messaging.inbox.batch.linger", "0ms"), List.of(), List.of("order-service")),
            new Lever("hand-off=off",
                    "every service's relay claims the events its writers commit (messaging.relay.hand-off.enabled="
                            + "false), as before the thirtieth round, where now the writer hands them to the relay "
                            + "after the commit (order-service's POST /orders since the thirtieth round, every inbox's "
                            + "replies since the thirty-first): read by id, published and marked sent, without the "
                            + "claim's transaction, row locks and notification",
                    Map.of("messaging.relay.hand-off.enabled", "false"), List.of()),
            new Lever("inbox-batch-lock=100ms",
                    "the batch lock timeout before the ninth round: a batch that waits longer than 100 ms for a row "
                            + "lock gives up and its events are applied one at a time, where now it waits behind the "
                            + "batch ahead of it for as long as any statement may (PostgreSQL's deadlock detection ends "
                            + "a circle after 1 s)",
                    Map.of("messaging.inbox.batch.lock-timeout", "100ms"), List.of()),
            new Lever("context-propagation=auto",
                    "the shared default before issue 15: Reactor restores thread-locals (the request id in the logging "
                            + "MDC) around every operator on every thread, where now it does so only in the handle and tap "
                            + "operators a request logs from",
                    Map.of("spring.reactor.context-propagation", "auto"), List.of()),
            new Lever("inbox-decoding=spring",
                    "Spring Cloud Function converts each delivery for the inbox, as before the sixteenth round "
                            + "(use-native-decoding=false): it tries to read the JSON into the inbox's byte[] with "
                            + "Jackson, fails with an exception, and then hands the bytes over as they came",
                    Map.of("spring.cloud.stream.default.consumer.use-native-decoding", "false"), List.of()),
            new Lever("order-read-ahead=off",
                    "order-service without the lock-ahead of the fourteenth round (orders.replies.read-ahead=false), "
                            + "and so without the nineteenth round's write-behind: each reply of a batch locks, reads "
                            + "and writes its own order, where now a batch locks and reads all its orders in one "
                            + "statement and writes them in one more",
                    Map.of("orders.replies.read-ahead", "false"), List.of()),
            new Lever("order-write-behind=off",
                    "order-service's batches of replies without the write-behind of the nineteenth round "
                            + "(orders.replies.write-behind=false): each reply writes its order's row and its history "
                            + "row in a statement of its own, where now a batch writes all of them in one, just before "
                            + "it commits",
                    Map.of("orders.replies.write-behind", "false"), List.of(), List.of("order-service")),
            new Lever("payment-record=alone",
                    "payment-service's worker records each outcome in a statement of its own "
                            + "(payment.worker.record-together=false), as before the twenty-first round, where now the "
                            + "outcomes that arrive while one is being recorded are recorded together, in one statement",
                    Map.of("payment.worker.record-together", "false"), List.of(), List.of("payment-service")),
            new Lever("payment-start=claim",
                    "payment-service records every payment asked for as CREATED and its worker claims it once the "
                            + "inbox transaction has committed (payment.worker.start-on-commit=false), as before the "
                            + "twenty-sixth round, where now, while the worker has room, that transaction moves it to "
                            + "PROCESSING itself, just before it commits, and the charge starts right after: no claim "
                            + "statement, no transaction of its own, no wait for the claim before it",
                    Map.of("payment.worker.start-on-commit", "false"), List.of(), List.of("payment-service")),
            paymentRounds(1, "as before the twenty-second round: a round claims up to 16 payments and waits for the "
                    + "slowest of their calls, and a payment asked for meanwhile waits for it, where now a payment is "
                    + "claimed at once while fewer than 32 are in flight"),
            paymentRounds(2, "as from the twenty-second to the twenty-fourth round: a payment asked for while both "
                    + "rounds wait for the provider waits for the first of them to end with its slowest call, where "
                    + "now it is claimed at once while fewer than 32 are in flight"),
            paymentRounds(4, "measured in the twenty-fourth round against two"),
            new Lever("netty-leak-detection=simple",
                    "Netty's default before it was turned off in the sixteenth round: one buffer allocation in 128 "
                            + "records its stack, so that a buffer never released can be reported",
                    Map.of("spring.netty.leak-detection", "simple"), List.of()),
            new Lever("order-logs=off",
                    "no INFO line per order: order-service's line when an order is created and when it ends, "
                            + "payment-service's per payment transition (considered, not adopted: the lines an operator "
                            + "follows an order by; measured to know what they cost)",
                    Map.of("logging.level.com.example.order.OrderService", "WARN",
                            "logging.level.com.example.order.OrderSaga", "WARN",
                            "logging.level.com.example.payment.PaymentWork", "WARN"),
                    List.of()),
            new Lever("plan-cache=auto",
                    "PostgreSQL's own plan_cache_mode, as before the seventeenth round: a statement with an array "
                            + "parameter (the relay's mark, the stock of an order's skus, a batch's read-ahead) is "
                            + "planned on every call instead of once per session",
                    Map.of("service.database.plan-cache-mode", "auto"), List.of()),
            new Lever("binary-results=off",
                    "statements' answers in PostgreSQL's text format, as before the thirty-third round: the driver "
                            + "parses every timestamp with a date-time formatter and every number from its digits",
                    Map.of("service.database.binary-results", "false"), List.of()),
            new Lever("pool-validation=every-use",
                    "the pool's check before every use of a connection, as before issue 15 (one round trip, one "
                            + "PostgreSQL transaction per use), where now only a connection that rested longer than "
                            + "500 ms or was slow on its last use is checked",
                    Map.of("service.database.revalidate-after", "0ms"), List.of()),
            new Lever("pool-validation=off",
                    "no round trip before any use of a pooled connection. Considered, not adopted: a connection that "
                            + "stopped answering without closing would be handed out again, and a request would wait on it",
                    Map.of("service.database.revalidate-after", "3650d"), List.of()),
            new Lever("heap=young-85m",
                    "the young generation the serial collector chose before issue 15 fixed it (48m, 40m since the "
                            + "twentieth round): a third of the "
                            + "heap the JVM starts with, all of -Xmx256m on a machine of 16 GiB or more (-Xmn85m). Every "
                            + "byte of it is touched between two collections, so all of it is resident; fewer collections",
                    Map.of(), List.of("-Xmn85m")),
            new Lever("heap=young-48m",
                    "the young generation of the third round to the nineteenth (-Xmn48m), where now it is 40m: all of "
                            + "it is touched between two collections, so every service keeps 8 MiB more resident, for "
                            + "a sixth fewer collections (each copies what is alive, about the same at either size)",
                    Map.of(), List.of("-Xmn48m")),
            new Lever("native-trim=off",
                    "the C library keeps the native memory the JVM frees (the C2 compiler's arenas above all) for "
                            + "reuse, where now the JVM hands it back to the operating system every 5 s "
                            + "(-XX:TrimNativeHeapInterval=0 turns that off)",
                    Map.of(), List.of("-XX:TrimNativeHeapInterval=0")),
            new Lever("jit=c1",
                    "the client compiler only (-XX:TieredStopAtLevel=1): no C2 compilations, which take a fifth of "
                            + "each service's CPU for minutes under load, for code that runs slower once compiled",
                    Map.of(), List.of("-XX:TieredStopAtLevel=1")));

    private Levers() {
    }

    /** payment-service's worker in rounds that end together (payment.worker.in-rounds), this many at a time. */
    private static Lever paymentRounds(int rounds, String why) {
        return new Lever("payment-rounds=" + rounds,
                "payment-service's worker runs " + (rounds == 1 ? "one round at a time" : "up to " + rounds
                        + " rounds at a time") + " (payment.worker.in-rounds=true, concurrent-rounds=" + rounds + "), "
                        + why,
                Map.of("payment.worker.in-rounds", "true", "payment.worker.concurrent-rounds", String.valueOf(rounds)),
                List.of(), List.of("payment-service"));
    }

    /**
     * The levers {@code bench.levers} names: all of them when it is empty, none for {@code none}, else those named,
     * comma-separated, in that order.
     */
    static List<Lever> select(String names) {
        String trimmed = names == null ? "" : names.strip();
        if (trimmed.isEmpty()) {
            return ALL;
        }
        if (trimmed.equals("none")) {
            return List.of();
        }
        List<Lever> selected = new ArrayList<>();
        for (String name : Arrays.stream(trimmed.split(",")).map(String::strip).filter(n -> !n.isEmpty()).toList()) {
            selected.add(ALL.stream().filter(lever -> lever.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("bench.levers: no lever " + name + "; there are "
                            + ALL.stream().map(Lever::name).toList() + ", or none")));
        }
        return List.copyOf(selected);
    }
}
