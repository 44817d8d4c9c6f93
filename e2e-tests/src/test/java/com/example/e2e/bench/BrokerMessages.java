package com.example.e2e.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.Base64;

import com.example.e2e.topology.BrokerNode;

import org.awaitility.Awaitility;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Messages through the broker node since it started, as its management API counts them ({@code /api/overview},
 * {@code message_stats}): the totals of every channel, closed ones included. The node samples them every
 * {@code collect_statistics_interval} (a second on the harness's node): a snapshot is exact for what happened
 * {@link #SAMPLE_DELAY} before it.
 */
final class BrokerMessages {

    static final Duration SAMPLE_DELAY = Duration.ofSeconds(2);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * @param published    messages clients published to exchanges
     * @param delivered    messages delivered to consumers (or fetched), redeliveries included
     * @param acknowledged acknowledgements consumers sent
     */
    record Counts(long published, long delivered, long acknowledged) {

        Counts minus(Counts earlier) {
            return new Counts(published - earlier.published, delivered - earlier.delivered,
                    acknowledged - earlier.acknowledged);
        }
    }

    private BrokerMessages() {
    }

    /**
     * The counts since {@code earlier}, once they include at least {@code sent} publishes: the outbox rows the
     * relays marked sent in that time (each was published and confirmed, so the node has counted it once its next
     * sample is in).
     */
    static Counts awaitCounted(BrokerNode broker, Counts earlier, long sent) {
        AtomicReference<Counts> counted = new AtomicReference<>();
        Awaitility.await("the broker's statistics count the " + sent + " messages the relays sent")
                .atMost(SAMPLE_DELAY.multipliedBy(10)).pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    counted.set(read(broker).minus(earlier));
                    return counted.get().published() >= sent;
                });
        return counted.get();
    }

    static Counts read(BrokerNode broker) throws IOException, InterruptedException {
        URI uri = broker.managementUri().resolve("/api/overview?columns=message_stats");
        String auth = Base64.getEncoder()
                .encodeToString((broker.user() + ":" + broker.password()).getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri).header("Authorization", "Basic " + auth)
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + uri + " answered " + response.statusCode());
        }
        return parse(JSON.readTree(response.body()));
    }

    /** A counter the node has not needed yet is absent: zero. */
    static Counts parse(JsonNode overview) {
        JsonNode stats = overview.path("message_stats");
        return new Counts(stats.path("publish").asLong(0), stats.path("deliver_get").asLong(0),
                stats.path("ack").asLong(0));
    }
}
