package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.support.AmqpHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

import com.example.events.EventHeaders;
import com.example.events.EventJson;
import com.example.events.OrderCreated;

class InboundEventTests {

    private static final long LIMIT = 256 * 1024;

    private final OrderCreated order = new OrderCreated(UUID.randomUUID(), 1L, 2L, List.of(3L), null,
            Instant.parse("2026-11-30T10:00:00Z"));

    @Test
    void readsTheEventAndItsTraceContext() {
        InboundEvent event = InboundEvent.from(message()
                .setHeader(EventHeaders.TRACEPARENT, "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").build(), LIMIT);

        assertThat(event.id()).isEqualTo(order.eventId());
        assertThat(event.type()).isEqualTo("OrderCreated");
        assertThat(event.event()).isEqualTo(order);
        assertThat(event.traceparent()).startsWith("00-4bf92f35");
    }

    @Test
    void aMissingSchemaVersionIsTheFirstOne() {
        assertThat(InboundEvent.from(message().removeHeader(EventHeaders.SCHEMA_VERSION).build(), LIMIT).event()).isEqualTo(order);
    }

    @Test
    void withoutAUuidMessageIdItIsPoison() {
        assertPoison(message().removeHeader(AmqpHeaders.MESSAGE_ID), "missing message_id");
        assertPoison(message().setHeader(AmqpHeaders.MESSAGE_ID, " "), "missing message_id");
        assertPoison(message().setHeader(AmqpHeaders.MESSAGE_ID, "42"), "message_id '42' is not a UUID");
    }

    @Test
    void withoutAKnownEventTypeItIsPoison() {
        assertPoison(message().removeHeader(EventHeaders.EVENT_TYPE), "missing event_type header");
        assertPoison(message().setHeader(EventHeaders.EVENT_TYPE, "OrderShipped"), "unknown event type 'OrderShipped'");
    }

    @Test
    void anUnreadableOrIncompleteBodyIsPoison() {
        assertPoison(MessageBuilder.withPayload("{\"event_id\": ".getBytes(StandardCharsets.UTF_8))
                .copyHeaders(message().build().getHeaders()), "malformed JSON");
        assertPoison(MessageBuilder.withPayload("{}".getBytes(StandardCharsets.UTF_8))
                .copyHeaders(message().build().getHeaders()), "missing required field");
    }

    @Test
    void aBodyOverTheLimitIsPoisonBeforeAnythingReadsIt() {
        byte[] body = message().build().getPayload();

        assertThatThrownBy(() -> InboundEvent.from(message().build(), body.length - 1))
                .isInstanceOf(PoisonMessageException.class)
                .hasMessage("message of " + body.length + " bytes is over the limit of " + (body.length - 1)
                        + " bytes (messaging.inbox.max-message-size)");
        assertThat(InboundEvent.from(message().build(), body.length).event()).isEqualTo(order);
    }

    @Test
    void aMessageIdOtherThanTheEventIdIsPoison() {
        UUID other = UUID.randomUUID();

        assertPoison(message().setHeader(AmqpHeaders.MESSAGE_ID, other.toString()),
                "message_id " + other + " differs from the body's event_id " + order.eventId());
    }

    @Test
    void aNewerSchemaThanThisConsumerReadsIsPoison() {
        assertPoison(message().setHeader(EventHeaders.SCHEMA_VERSION, 2), "unsupported schema_version 2");
        assertPoison(message().setHeader(EventHeaders.SCHEMA_VERSION, "one"), "schema_version 'one' is not an integer");
    }

    @Test
    void namesTheTypeForMetricsOnlyWhenItIsKnown() {
        assertThat(InboundEvent.typeOf(message().build())).isEqualTo("OrderCreated");
        assertThat(InboundEvent.typeOf(message().setHeader(EventHeaders.EVENT_TYPE, "x\ny").build())).isEqualTo("unknown");
    }

    private MessageBuilder<byte[]> message() {
        return MessageBuilder.withPayload(EventJson.write(order).getBytes(StandardCharsets.UTF_8))
                .setHeader(AmqpHeaders.MESSAGE_ID, order.eventId().toString())
                .setHeader(EventHeaders.EVENT_TYPE, "OrderCreated")
                .setHeader(EventHeaders.SCHEMA_VERSION, 1);
    }

    private static void assertPoison(MessageBuilder<byte[]> message, String reason) {
        Message<byte[]> built = message.build();
        assertThatThrownBy(() -> InboundEvent.from(built, LIMIT))
                .isInstanceOf(PoisonMessageException.class)
                .hasMessageContaining(reason);
    }
}
