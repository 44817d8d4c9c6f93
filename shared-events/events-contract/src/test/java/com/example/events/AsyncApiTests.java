package com.example.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The AsyncAPI description of the events ({@value #DOCUMENT}) cannot drift from the event contract: it is
 * derived here from the records themselves (their families give the channels, their components the payload
 * schemas, their constructors which fields are required), compared with the committed file, and every golden
 * fixture must validate against its message's schema. After a change to an event, regenerate the file with
 * {@code ./mvnw test -pl shared-events/events-contract -Dasyncapi.write=true} and commit it with the change.
 */
class AsyncApiTests {

    static final Path DOCUMENT = Path.of("../../docs/asyncapi.json");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;


    @Test
    void theCommittedDescriptionIsTheOneTheRecordsDescribe() throws IOException {
        ObjectNode derived = describe();
        if (Boolean.getBoolean("asyncapi.write")) {
            Files.writeString(DOCUMENT, EventJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(derived)
                    + "\n");
        }
        assertThat(Files.exists(DOCUMENT)).as("%s exists", DOCUMENT).isTrue();
        JsonNode committed = EventJson.mapper().readTree(Files.readString(DOCUMENT));

        assertThat(committed).as("%s is out of date: regenerate it with -Dasyncapi.write=true", DOCUMENT)
                .isEqualTo(derived);
    }

    @ParameterizedTest
    @MethodSource("com.example.events.GoldenFixtures#eventTypes")
    void everyGoldenFixtureMatchesItsMessageSchema(String eventType) throws IOException {
        JsonNode committed = EventJson.mapper().readTree(Files.readString(DOCUMENT));
        JsonNode schema = committed.path("components").path("schemas").path(eventType);
        assertThat(schema.isObject()).as("schema of %s", eventType).isTrue();

        var errors = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                .getSchema(EventJson.mapper().writeValueAsString(schema))
                .validate(EventJson.mapper().readTree(GoldenFixtures.read(eventType)));

        assertThat(errors).as("%s.json against its schema", eventType).isEmpty();
    }

    @Test
    void aBodyThatBreaksItsSchemaIsCaught() {
        JsonNode schema = describe().path("components").path("schemas").path("OrderCreated");
        ObjectNode body = (ObjectNode) EventJson.mapper().readTree(GoldenFixtures.read("OrderCreated"));
        body.remove("order_id");
        body.put("user_id", "42");

        var errors = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                .getSchema(EventJson.mapper().writeValueAsString(schema)).validate(body);

        assertThat(errors).extracting(Object::toString).anyMatch(error -> error.contains("order_id"))
                .anyMatch(error -> error.contains("user_id"));
    }

    /** The whole document, from the sealed families and their records. */
    static ObjectNode describe() {
        ObjectNode document = JSON.objectNode();
        document.put("asyncapi", "3.0.0");
        document.putObject("info")
                .put("title", "Order events")
                .put("version", String.valueOf(DomainEvent.SCHEMA_VERSION))
                .put("description", "The events the services publish on RabbitMQ. Each producer publishes to its "
                        + "own durable topic exchange with the event type as routing key; every message is "
                        + "persistent, its body the event as JSON, its AMQP message_id the event id, which "
                        + "consumers deduplicate on. Generated from the event contract (shared-events/"
                        + "events-contract); see docs/contract.md, \"Events on RabbitMQ\".");
        document.put("defaultContentType", "application/json");
        ObjectNode channels = document.putObject("channels");
        ObjectNode operations = document.putObject("operations");
        ObjectNode components = document.putObject("components");
        ObjectNode messages = components.putObject("messages");
        ObjectNode schemas = components.putObject("schemas");
        schemas.set("EventHeaders", headers());
        Map<String, List<Class<? extends DomainEvent>>> byExchange = new TreeMap<>();
        EventTypes.all().values().stream().sorted(Comparator.comparing(Class::getSimpleName))
                .forEach(type -> byExchange.computeIfAbsent(EventTypes.exchangeOf(type), e -> new java.util.ArrayList<>())
                        .add(type));
        byExchange.forEach((exchange, types) -> {
            ObjectNode channel = channels.putObject(exchange);
            channel.put("address", exchange);
            channel.put("description", "Durable topic exchange; routing key = event type. Each consumer binds "
                    + "its quorum queue <exchange>.<service> (dead letters in <exchange>.<service>.dlq).");
            ObjectNode channelMessages = channel.putObject("messages");
            ObjectNode amqp = channel.putObject("bindings").putObject("amqp");
            amqp.put("is", "routingKey");
            amqp.putObject("exchange").put("name", exchange).put("type", "topic").put("durable", true)
                    .put("autoDelete", false);
            amqp.put("bindingVersion", "0.3.0");
            ObjectNode send = operations.putObject("publish-" + exchange.replace('.', '-'));
            send.put("action", "send");
            send.putObject("channel").put("$ref", "#/channels/" + exchange);
            ArrayNode sent = send.putArray("messages");
            for (Class<? extends DomainEvent> type : types) {
                String name = type.getSimpleName();
                channelMessages.putObject(name).put("$ref", "#/components/messages/" + name);
                sent.addObject().put("$ref", "#/channels/" + exchange + "/messages/" + name);
                ObjectNode message = messages.putObject(name);
                message.put("name", name);
                message.put("contentType", "application/json");
                message.putObject("headers").put("$ref", "#/components/schemas/EventHeaders");
                message.putObject("payload").put("$ref", "#/components/schemas/" + name);
                message.putObject("bindings").putObject("amqp").put("messageType", name).put("deliveryMode", 2)
                        .put("bindingVersion", "0.3.0");
                schemas.set(name, payload(type));
            }
        });
        return document;
    }

    private static ObjectNode headers() {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        schema.put("description", "AMQP headers of every event message; the event id is the message_id property");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject(EventHeaders.EVENT_TYPE).put("type", "string")
                .put("description", "The event type, also the routing key");
        properties.putObject(EventHeaders.AGGREGATE_TYPE).put("type", "string").put("description", "e.g. order");
        properties.putObject(EventHeaders.AGGREGATE_ID).put("type", "string").put("description", "e.g. 123");
        properties.putObject(EventHeaders.SCHEMA_VERSION).put("type", "integer").put("minimum", 1)
                .put("description", "Version of the body's schema; an incompatible change needs a new one");
        properties.putObject(EventHeaders.OCCURRED_AT).put("type", "string").put("format", "date-time");
        properties.putObject(EventHeaders.TRACEPARENT).put("type", "string")
                .put("description", "W3C trace context of the request that caused the event, when there was one");
        schema.putArray("required").add(EventHeaders.EVENT_TYPE).add(EventHeaders.AGGREGATE_TYPE)
                .add(EventHeaders.AGGREGATE_ID).add(EventHeaders.SCHEMA_VERSION).add(EventHeaders.OCCURRED_AT);
        return schema;
    }

    /** A record's body: its components in snake_case; required unless the constructor takes a null. */
    private static ObjectNode payload(Class<? extends DomainEvent> type) {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = schema.putArray("required");
        DomainEvent sample = EventJson.read(GoldenFixtures.read(type.getSimpleName()).getBytes(StandardCharsets.UTF_8), type);
        RecordComponent[] components = type.getRecordComponents();
        for (int i = 0; i < components.length; i++) {
            String name = snakeCase(components[i].getName());
            boolean nullable = acceptsNull(type, sample, i);
            properties.set(name, schemaOf(components[i].getGenericType(), nullable));
            if (!nullable) {
                required.add(name);
            }
        }
        return schema;
    }

    private static ObjectNode schemaOf(Type type, boolean nullable) {
        ObjectNode schema = JSON.objectNode();
        if (type instanceof ParameterizedType list && list.getRawType() == List.class) {
            schema.put("type", "array");
            schema.set("items", schemaOf(list.getActualTypeArguments()[0], false));
        } else if (type == UUID.class) {
            schema.put("type", "string").put("format", "uuid");
        } else if (type == Instant.class) {
            schema.put("type", "string").put("format", "date-time");
        } else if (type == Long.class || type == long.class || type == Integer.class || type == int.class) {
            schema.put("type", "integer");
        } else if (type == String.class) {
            schema.put("type", "string");
        } else {
            throw new IllegalStateException("no JSON schema for " + type + ": teach AsyncApiTests the type");
        }
        if (nullable) {
            String single = schema.get("type").asString();
            schema.putArray("type").add(single).add("null");
        }
        return schema;
    }

    /** Whether the record can be built with component {@code index} null, everything else as in the sample. */
    private static boolean acceptsNull(Class<? extends DomainEvent> type, DomainEvent sample, int index) {
        RecordComponent[] components = type.getRecordComponents();
        Object[] arguments = new Object[components.length];
        Class<?>[] parameterTypes = new Class<?>[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                parameterTypes[i] = components[i].getType();
                arguments[i] = i == index ? null : components[i].getAccessor().invoke(sample);
            }
            Constructor<? extends DomainEvent> canonical = type.getDeclaredConstructor(parameterTypes);
            canonical.newInstance(arguments);
            return true;
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IllegalArgumentException) {
                return false;
            }
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The name the contract's JSON mapping gives a record component on the wire. */
    private static String snakeCase(String name) {
        return PropertyNamingStrategies.SNAKE_CASE.nameForField(null, null, name);
    }
}
