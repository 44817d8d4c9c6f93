package com.example.testsupport;

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
import java.util.List;
import java.util.Properties;

import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;

import com.example.events.DomainEvent;
import com.example.events.EventJson;

import tools.jackson.databind.JsonNode;

/**
 * A test's connection to one RabbitMQ vhost: publishes events exactly as the outbox relay does
 * ({@link TestEvents#message}), waits for the broker's confirm, and reads queues.
 */
public final class BrokerClient implements AutoCloseable {

    /** What the management API says about a queue (refreshed by the broker every few seconds). */
    public record QueueStats(long ready, long unacknowledged) {
    }

    /** A queue's binding to an exchange, with its routing key. */
    public record QueueBinding(String exchange, String routingKey) {
    }

    private final String vhost;
    private final TestInfrastructure.Rabbit rabbit;
    private final CachingConnectionFactory connections;
    private final RabbitTemplate template;
    private final RabbitAdmin admin;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private BrokerClient(String vhost) {
        this.vhost = vhost;
        this.rabbit = TestInfrastructure.get().rabbit();
        this.connections = new CachingConnectionFactory(rabbit.host(), rabbit.port());
        connections.setUsername(rabbit.user());
        connections.setPassword(rabbit.password());
        connections.setVirtualHost(vhost);
        connections.setPublisherConfirmType(CachingConnectionFactory.ConfirmType.SIMPLE);
        this.template = new RabbitTemplate(connections);
        this.admin = new RabbitAdmin(connections);
    }

    public static BrokerClient forVhost(String vhost) {
        return new BrokerClient(vhost);
    }

    /**
     * Binds a queue to every routing key of the exchange, as order-service's queues are bound to the
     * reply exchanges in the running system, so that what the relay publishes there is routable (a
     * returned message is retried, then parked, and holds back the service's readiness). Declares
     * only the queue: the exchange must exist, so this fails for a service that did not declare it.
     */
    public void bindSink(String exchange) {
        Queue sink = new Queue(exchange + ".test-sink", true);
        admin.declareQueue(sink);
        admin.declareBinding(BindingBuilder.bind(sink).to(new TopicExchange(exchange, true, false)).with("#"));
    }

    /** Publishes to the event's exchange with its type as routing key, and waits for the broker's confirm. */
    public void publish(DomainEvent event) {
        publish(event.exchange(), event.eventType(), TestEvents.message(event));
    }

    public void publish(String exchange, String routingKey, Message message) {
        template.invoke(operations -> {
            operations.send(exchange, routingKey, message);
            operations.waitForConfirmsOrDie(10_000);
            return null;
        });
    }

    /** Publishes straight into a queue (default exchange), as any misbehaving producer could. */
    public void publishToQueue(String queue, Message message) {
        publish("", queue, message);
    }

    /** Takes the next message from the queue (acknowledged), or null after the timeout. */
    public Message receive(String queue, Duration timeout) {
        return template.receive(queue, timeout.toMillis());
    }

    /** Messages ready for delivery, straight from the broker (a passive declare); -1 if the queue does not exist. */
    public long ready(String queue) {
        Properties properties = admin.getQueueProperties(queue);
        return properties == null ? -1 : ((Number) properties.get(RabbitAdmin.QUEUE_MESSAGE_COUNT)).longValue();
    }

    public QueueStats stats(String queue) {
        JsonNode body = management("/api/queues/" + encode(vhost) + "/" + encode(queue));
        return new QueueStats(body.path("messages_ready").asLong(), body.path("messages_unacknowledged").asLong());
    }

    /** True when the vhost has an exchange of that name and type, durable. */
    public boolean hasDurableExchange(String name, String type) {
        JsonNode body = management("/api/exchanges/" + encode(vhost) + "/" + encode(name));
        return type.equals(body.path("type").asString()) && body.path("durable").asBoolean();
    }

    /** The arguments a queue was declared with (e.g. {@code x-queue-type}). */
    public JsonNode queueArguments(String queue) {
        return management("/api/queues/" + encode(vhost) + "/" + encode(queue)).path("arguments");
    }

    /** What the management API says about a queue: {@code durable}, {@code type}, {@code arguments}... */
    public JsonNode queue(String queue) {
        return management("/api/queues/" + encode(vhost) + "/" + encode(queue));
    }

    /** The queue's bindings, without the default exchange's (every queue has that one). */
    public List<QueueBinding> bindings(String queue) {
        List<QueueBinding> bindings = new ArrayList<>();
        for (JsonNode binding : management("/api/queues/" + encode(vhost) + "/" + encode(queue) + "/bindings")) {
            if (!binding.path("source").asString().isEmpty()) {
                bindings.add(new QueueBinding(binding.path("source").asString(), binding.path("routing_key").asString()));
            }
        }
        return bindings;
    }

    /** What the management API says about an exchange: {@code type}, {@code durable}, {@code auto_delete}... */
    public JsonNode exchange(String name) {
        return management("/api/exchanges/" + encode(vhost) + "/" + encode(name));
    }

    private JsonNode management(String path) {
        String auth = Base64.getEncoder()
                .encodeToString((rabbit.user() + ":" + rabbit.password()).getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(URI.create(rabbit.managementUrl() + path))
                .timeout(Duration.ofSeconds(10)).header("Authorization", "Basic " + auth).GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + path + " answered " + response.statusCode() + ": "
                        + response.body());
            }
            return EventJson.mapper().readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("RabbitMQ management API does not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String encode(String part) {
        return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public void close() {
        connections.destroy();
    }
}
