package com.example.e2e.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.service.database.DatabaseRoles;
import com.example.testsupport.TestInfrastructure;
import com.example.testsupport.TestTokens;

/**
 * The {@code processes} driver: a throw-away PostgreSQL server and RabbitMQ node of its own, and the
 * services (and the payment simulator) as child JVMs on free ports. Everything it starts is stopped by {@link #close()}, by a
 * shutdown hook when the JVM ends first, and, should the JVM be killed outright, by the next run
 * (see {@link Leftovers}).
 */
public final class ProcessTopology implements Topology {

    private static final Logger log = LoggerFactory.getLogger(ProcessTopology.class);
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

    private final HarnessPaths paths;
    private final Function<Service, Map<String, Object>> serviceSettings;
    private final Leftovers leftovers;
    private final List<ServiceNode> nodes = new CopyOnWriteArrayList<>();
    private final Map<Service, Integer> instanceCounts = Collections.synchronizedMap(new EnumMap<>(Service.class));
    private final Map<Service, ClassDataSharing.Launch> launches = Collections.synchronizedMap(new EnumMap<>(Service.class));
    private final ClassDataSharing classDataSharing;
    private final Thread shutdownHook = new Thread(this::close, "e2e-topology-stop");
    private volatile PostgresNode database;
    private volatile Map<Service, DatabaseRoles.Access> roles;
    /** Each service's broker password; it connects as its own user, named after it. */
    private volatile Map<Service, String> brokerPasswords;
    private volatile RabbitNode broker;
    private final Options options;
    private volatile Map<String, ?> overrideProperties = Map.of();
    private volatile List<String> overrideJvmOptions = List.of();
    private volatile Predicate<Service> overridden = service -> true;
    private volatile boolean closed;
    /** The payment provider's API key, as payment-service and the simulator share it. */
    private final String providerKey = Steps.secret();

    /**
     * How the processes run besides their Spring settings.
     *
     * @param serviceJvmOptions JVM options of every service, after the harness's own (which favour a fast start:
     *                          {@code -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC}); a later option wins
     * @param durableDatabase   PostgreSQL flushes every commit to disk (fsync on) as in production, instead of
     *                          skipping fsync as the fault tests do
     */
    public record Options(List<String> serviceJvmOptions, boolean durableDatabase) {

        /** What the fault tests use: a fast start and a fast database. */
        public static Options faultTests() {
            return new Options(List.of(), false);
        }
    }

    /**
     * @param serviceSettings Spring properties a scenario suite adds for each service (e.g. risk rules),
     *                        besides the connection settings this driver sets
     */
    public ProcessTopology(HarnessPaths paths, Function<Service, Map<String, Object>> serviceSettings) {
        this(paths, serviceSettings, Options.faultTests());
    }

    public ProcessTopology(HarnessPaths paths, Function<Service, Map<String, Object>> serviceSettings, Options options) {
        this.paths = paths;
        this.serviceSettings = serviceSettings;
        this.options = options;
        this.leftovers = new Leftovers(paths.output().resolve("e2e-run").resolve("pids.tsv"));
        this.classDataSharing = new ClassDataSharing(paths.output().resolve("e2e-run").resolve("cds"),
                !"false".equals(System.getProperty("e2e.cds")));
    }

    @Override
    public void start(Set<Service> heldBack) {
        leftovers.reap();
        Steps.freshLogDirectory(paths.logs());
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        long started = System.nanoTime();
        database = PostgresNode.start(paths.logs(), leftovers, options.durableDatabase());
        roles = Steps.provisionDatabases(database);
        // Training the class-data sharing archives needs the database only, so the broker starts meanwhile.
        List<Runnable> preparations = new ArrayList<>();
        preparations.add(() -> broker = RabbitNode.start(paths.logs().resolve("rabbitmq"), leftovers));
        for (Service service : Service.values()) {
            preparations.add(() -> launches.put(service,
                    classDataSharing.prepare(service, paths.jar(service), trainingSettingsOf(service), paths.logs())));
        }
        Steps.inParallel(preparations);
        log.info("Throw-away PostgreSQL on port {} and RabbitMQ on port {} (management {}) are up", database.port(),
                broker.amqpPort(), broker.managementUri());
        brokerPasswords = Steps.provisionTopology(broker);
        List<ServiceNode> first = Steps.startFirstInstances(this::addInstance, READY_TIMEOUT, heldBack);
        log.info("{} ready after {} s: {}{}", first.size() == Service.values().length ? "Every service is"
                : "The services not held back are", Duration.ofNanos(System.nanoTime() - started).toSeconds(), first,
                heldBack.isEmpty() ? "" : " (held back: " + heldBack + ")");
    }

    @Override
    public List<ServiceNode> nodes() {
        return List.copyOf(nodes);
    }



    @Override
    public ServiceNode addInstance(Service service) {
        int number = instanceCounts.merge(service, 1, Integer::sum);
        ClassDataSharing.Launch launch = launches.computeIfAbsent(service,
                unprepared -> new ClassDataSharing.Launch(paths.jar(unprepared), List.of()));
        ServiceNode node = new ProcessServiceNode(service.moduleName() + "-" + number, service, () -> {
            List<String> jvmOptions = new ArrayList<>(launch.jvmOptions());
            jvmOptions.addAll(options.serviceJvmOptions());
            if (overridden.test(service)) {
                jvmOptions.addAll(overrideJvmOptions);
            }
            return new ClassDataSharing.Launch(launch.jar(), jvmOptions);
        }, paths.logs(), () -> settingsOf(service), leftovers);
        nodes.add(node);
        return node;
    }

    /**
     * Spring properties and JVM options the instances of the services {@code which} accepts get from their next start
     * on, after all others (a later JVM option wins): for a benchmark that restarts the services with other settings.
     * Empty ones end it, again from the next start.
     */
    public void overrideServices(Predicate<Service> which, Map<String, ?> properties, List<String> jvmOptions) {
        overridden = which;
        overrideProperties = Map.copyOf(properties);
        overrideJvmOptions = List.copyOf(jvmOptions);
    }

    /** The JVM of a running service instance, for a benchmark that reads its CPU time in /proc. */
    public long pid(ServiceNode node) {
        return ((ProcessServiceNode) node).pid();
    }

    /** The PostgreSQL server's postmaster; its backends and helper processes are its children. */
    public long databasePid() {
        return database.pid();
    }

    /** The RabbitMQ node's Erlang VM; its port programs (and what they run) are its children. */
    public long brokerPid() {
        return broker.pid();
    }

    @Override
    public BrokerNode broker() {
        return broker;
    }

    @Override
    public DatabaseNode database() {
        return database;
    }

    /** Connection settings of the throw-away infrastructure, then the suite's own settings for the service. */
    private Map<String, Object> settingsOf(Service service) {
        Map<String, Object> settings = new LinkedHashMap<>(databaseSettings(service));
        if (service.isOurs()) {
            settings.put("spring.rabbitmq.host", "localhost");
            settings.put("spring.rabbitmq.port", broker.amqpPort());
            settings.put("spring.rabbitmq.username", service.moduleName());
            settings.put("spring.rabbitmq.password", brokerPasswords.get(service));
        }
        settings.putAll(Steps.providerSettings(service, service == Service.PAYMENT
                ? node(Service.PAYMENT_SIMULATOR).baseUrl().toString() : "", providerKey));
        settings.putAll(serviceSettings.apply(service));
        if (overridden.test(service)) {
            settings.putAll(overrideProperties);
        }
        return settings;
    }

    /**
     * The settings of a training run: a context refresh connects to the database (Flyway) but not to the
     * broker; should that ever change, it must find no broker rather than the machine's shared one.
     */
    private Map<String, Object> trainingSettingsOf(Service service) {
        Map<String, Object> settings = new LinkedHashMap<>(databaseSettings(service));
        settings.put("spring.rabbitmq.host", "localhost");
        settings.put("spring.rabbitmq.port", TestInfrastructure.freePort());
        // Nothing calls the provider during training: an address where nothing listens.
        settings.putAll(Steps.providerSettings(service, "http://localhost:" + TestInfrastructure.freePort(),
                providerKey));
        settings.putAll(serviceSettings.apply(service));
        return settings;
    }

    /**
     * Where the database is, the service's roles there (it runs as the runtime role and migrates as the owner), and
     * the key of the tests' token issuer (every service wants a bearer token).
     */
    private Map<String, Object> databaseSettings(Service service) {
        DatabaseRoles.Access access = roles.get(service);
        return Map.of("service.database.host", "localhost", "service.database.port", database.port(),
                "spring.r2dbc.username", access.runtime(), "spring.r2dbc.password", access.runtimePassword(),
                "spring.flyway.user", access.owner(), "spring.flyway.password", access.ownerPassword(),
                TestTokens.PROPERTY, TestTokens.publicKeyLocation());
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (ServiceNode node : nodes) {
            Steps.quietly(() -> {
                if (node.isRunning()) {
                    node.kill();
                }
            });
        }
        if (broker != null) {
            Steps.quietly(broker::close);
        }
        if (database != null) {
            Steps.quietly(database::close);
        }
        if (Thread.currentThread() != shutdownHook) {
            Steps.quietly(() -> Runtime.getRuntime().removeShutdownHook(shutdownHook));
        }
    }
}
