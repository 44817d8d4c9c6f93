package com.example.messaging.topology;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import com.example.events.EventTypes;
import com.example.events.Subscriptions;

import tools.jackson.databind.json.JsonMapper;

/**
 * A broker user per service (docs/architecture.md, rule 12), with permissions that cover its own exchange, queues
 * and dead-letter plumbing and nothing else, derived from the same contract tables as the topology:
 * <ul>
 * <li><b>configure</b> (declare, delete): its own exchange, its own dead-letter exchange, its queues and their
 * dead-letter queues. Not the exchanges it consumes from: the topology step declares those, the service's binder
 * only binds to them.</li>
 * <li><b>write</b> (publish; bind a queue): the same. Not the default exchange, which would reach every queue of the
 * vhost by name: a re-drive goes back through the service's dead-letter exchange.</li>
 * <li><b>read</b> (consume, get; be the source of a binding): its queues and dead-letter queues, its dead-letter
 * exchange, and the exchanges it consumes from.</li>
 * </ul>
 * So inventory-service's user can publish {@code InventoryReserved} on {@code inventory.events}, but not a
 * {@code RiskApproved} on {@code risk.events}, nothing into another service's queue or dead-letter queue, and it
 * cannot delete {@code order.events}.
 *
 * <p>Users are created or updated through RabbitMQ's management API ({@code RABBITMQ_MANAGEMENT_URL}, by default
 * port 15672 of {@code RABBITMQ_HOST}) as the provisioner's administrator, for each service whose password is set
 * ({@value #PASSWORD_VARIABLE_PREFIX}{@code <SERVICE>}, e.g. {@code RABBITMQ_PASSWORD_ORDER_SERVICE}); the user is
 * named after the service, has no tags (no management UI) and permissions in {@code RABBITMQ_VHOST} only. Running it
 * again sets the same permissions and the password given (how a password is rotated).
 */
public final class BrokerUsers {

    static final String PASSWORD_VARIABLE_PREFIX = "RABBITMQ_PASSWORD_";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What one service's user may do, as RabbitMQ permission patterns (matched against whole resource names). */
    record Permissions(String user, String configure, String write, String read) {

        @Override
        public String toString() {
            return "broker user " + user + ": configure " + configure + " write " + write + " read " + read;
        }
    }

    private BrokerUsers() {
    }

    /** Every service of the contract: each one that publishes or consumes events, in name order. */
    static SortedSet<String> services() {
        SortedSet<String> services = new TreeSet<>(EventTypes.producers());
        services.addAll(Subscriptions.groups());
        return services;
    }

    /** The variable holding a service's broker password: {@code RABBITMQ_PASSWORD_INVENTORY_SERVICE}. */
    public static String passwordVariable(String service) {
        return PASSWORD_VARIABLE_PREFIX + service.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    static Permissions permissions(ContractTopology topology, String service, String user) {
        SortedSet<String> own = new TreeSet<>();
        EventTypes.exchangeOfProducer(service).ifPresent(own::add);
        SortedSet<String> sources = new TreeSet<>();
        for (SubscriberQueue queue : topology.queuesOf(service)) {
            own.add(queue.name());
            own.add(queue.deadLetterQueue());
            own.add(queue.deadLetterExchange());
            sources.add(queue.exchange());
        }
        SortedSet<String> readable = new TreeSet<>(own);
        EventTypes.exchangeOfProducer(service).ifPresent(readable::remove);
        readable.addAll(sources);
        return new Permissions(user, pattern(own), pattern(own), pattern(readable));
    }

    /**
     * Creates or updates the user of every service whose password the environment sets.
     *
     * @return one line per user: its permissions
     * @throws TopologyException when the management API cannot be reached or refuses
     */
    public static List<String> provision(BrokerAddress broker, Map<String, String> environment) {
        return provision(broker, environment, UnaryOperator.identity());
    }

    /** @param userName the user's name for a service's (tests give theirs names of their own) */
    static List<String> provision(BrokerAddress broker, Map<String, String> environment,
            UnaryOperator<String> userName) {
        ContractTopology topology = ContractTopology.forContract(environment);
        URI management = managementUrl(broker, environment);
        List<String> provisioned = new ArrayList<>();
        // HTTP/1.1: the JDK client would offer an h2c upgrade with the body, which the management API breaks off.
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
        for (String service : services()) {
            String password = environment.get(passwordVariable(service));
            if (password == null || password.isBlank()) {
                continue;
            }
            Permissions permissions = permissions(topology, service, userName.apply(service));
            put(http, broker, management, "users/" + encode(permissions.user()),
                    Map.of("password", password, "tags", ""));
            put(http, broker, management,
                    "permissions/" + encode(broker.virtualHost()) + "/" + encode(permissions.user()),
                    Map.of("configure", permissions.configure(), "write", permissions.write(),
                            "read", permissions.read()));
            provisioned.add(permissions.toString());
        }
        return provisioned;
    }

    /** {@code RABBITMQ_MANAGEMENT_URL}, else port 15672 of the broker's host. */
    static URI managementUrl(BrokerAddress broker, Map<String, String> environment) {
        String configured = environment.get("RABBITMQ_MANAGEMENT_URL");
        String url = configured == null || configured.isBlank() ? "http://" + broker.host() + ":15672" : configured;
        try {
            return URI.create(url.endsWith("/") ? url : url + "/");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("RABBITMQ_MANAGEMENT_URL is not a URL: " + url, e);
        }
    }

    private static void put(HttpClient http, BrokerAddress broker, URI management, String path, Map<String, String> body) {
        URI uri = management.resolve("api/" + path);
        String credentials = Base64.getEncoder()
                .encodeToString((broker.user() + ":" + broker.password()).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(TIMEOUT)
                .header("Authorization", "Basic " + credentials)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new TopologyException("RabbitMQ's management API at " + management + " cannot be reached: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopologyException("interrupted while provisioning broker users", e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new TopologyException("RabbitMQ's management API refused PUT " + uri.getPath() + " as "
                    + broker.user() + ": " + response.statusCode() + " " + response.body().strip());
        }
    }

    /** Whole names only, regex characters escaped: {@code ^(inventory\.events|order\.events\.inventory-service)$}. */
    private static String pattern(Collection<String> names) {
        if (names.isEmpty()) {
            return "^$";
        }
        return names.stream().map(BrokerUsers::escape).collect(Collectors.joining("|", "^(", ")$"));
    }

    private static String escape(String name) {
        StringBuilder escaped = new StringBuilder();
        for (char c : name.toCharArray()) {
            if ("\\^$.|?*+()[]{}".indexOf(c) >= 0) {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
