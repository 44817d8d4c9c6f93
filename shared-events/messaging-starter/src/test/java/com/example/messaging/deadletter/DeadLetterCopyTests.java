package com.example.messaging.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

class DeadLetterCopyTests {

    @Test
    void keepsEveryPropertyAndTheEventsHeadersAndTheDeathHistory() {
        Map<String, Object> headers = new HashMap<>();
        headers.put("event_type", "OrderCreated");
        headers.put("aggregate_type", "order");
        headers.put("aggregate_id", "7");
        headers.put("schema_version", 1);
        headers.put("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        headers.put("x-death", List.of(Map.of("queue", "order.events.inventory-service", "reason", "delivery_limit",
                "count", 1L)));
        AMQP.BasicProperties dead = new AMQP.BasicProperties.Builder().messageId("5b6f0f8e-8a53-4c6e-9a34-2d1b3c9e7f10")
                .contentType("application/json").contentEncoding("UTF-8").deliveryMode(1).correlationId("c")
                .appId("order-service").headers(headers).build();

        AMQP.BasicProperties copy = DeadLetterCopy.of(dead);

        assertThat(copy.getMessageId()).isEqualTo("5b6f0f8e-8a53-4c6e-9a34-2d1b3c9e7f10");
        assertThat(copy.getContentType()).isEqualTo("application/json");
        assertThat(copy.getContentEncoding()).isEqualTo("UTF-8");
        assertThat(copy.getCorrelationId()).isEqualTo("c");
        assertThat(copy.getAppId()).isEqualTo("order-service");
        assertThat(copy.getDeliveryMode()).as("persistent").isEqualTo(2);
        assertThat(copy.getHeaders()).isEqualTo(headers);
    }

    @Test
    void dropsWhatDescribesTheLastStayInTheDeadLetterQueue() {
        Map<String, Object> headers = new HashMap<>();
        headers.put("event_type", "OrderCreated");
        headers.put("x-poison-reason", "unknown event type 'OrderShipped'");
        headers.put("x-exception-message", "unknown event type 'OrderShipped'");
        headers.put("x-exception-stacktrace", "com.example...PoisonMessageException ...");
        headers.put("x-original-exchange", "order.events");
        headers.put("x-original-routingKey", "OrderCreated");
        headers.put("x-delivery-count", 3);
        AMQP.BasicProperties dead = new AMQP.BasicProperties.Builder().messageId("id").userId("inventory-service")
                .headers(headers).build();

        AMQP.BasicProperties copy = DeadLetterCopy.of(dead);

        assertThat(copy.getHeaders()).containsOnly(Map.entry("event_type", "OrderCreated"));
        assertThat(copy.getUserId()).isNull();
        assertThat(dead.getHeaders()).as("the original is left alone").hasSize(7);
    }

    @Test
    void aMessageWithoutHeadersGetsNone() {
        AMQP.BasicProperties copy = DeadLetterCopy.of(new AMQP.BasicProperties.Builder().build());

        assertThat(copy.getHeaders()).isEmpty();
        assertThat(copy.getDeliveryMode()).isEqualTo(2);
    }
}
