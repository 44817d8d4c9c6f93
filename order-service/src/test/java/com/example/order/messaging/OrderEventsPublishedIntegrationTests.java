package com.example.order.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.TopicExchange;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.reactive.function.client.WebClient;

import com.example.events.EventJson;
import com.example.events.OrderCreated;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.TestTokens;

import reactor.core.publisher.Flux;

/** Orders placed through the API leave as OrderCreated messages of the contract, every one of them. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
class OrderEventsPublishedIntegrationTests {

    private static final int ORDERS = 1000;

    @LocalServerPort
    int port;

    @Autowired
    RabbitTemplate rabbit;

    @Autowired
    RabbitAdmin admin;

    @Autowired
    DatabaseClient db;

    @Test
    void aThousandConcurrentOrdersBecomeAThousandMessages() {
        Queue queue = new Queue("order-events-observer", true);
        admin.declareQueue(queue);
        admin.declareExchange(new TopicExchange("order.events", true, false));
        admin.declareBinding(BindingBuilder.bind(queue).to(new TopicExchange("order.events")).with("#"));
        WebClient client = WebClient.builder().baseUrl("http://localhost:" + port)
                .defaultHeaders(headers -> headers.setBearerAuth(TestTokens.admin())).build();

        Long created = Flux.range(1, ORDERS)
                .flatMap(user -> client.post().uri("/orders").contentType(MediaType.APPLICATION_JSON)
                        .bodyValue("{\"user_id\": " + user + ", \"sku_ids\": [1, 2], \"idempotency_key\": \""
                                + UUID.randomUUID() + "\"}")
                        .retrieve().toBodilessEntity(), 32)
                .filter(response -> response.getStatusCode().value() == 201).count().block(Duration.ofMinutes(2));
        assertThat(created).isEqualTo(ORDERS);

        Map<String, Message> received = new HashMap<>();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            for (Message message = rabbit.receive(queue.getName()); message != null;
                    message = rabbit.receive(queue.getName())) {
                received.put(message.getMessageProperties().getMessageId(), message);
            }
            assertThat(received).hasSize(ORDERS);
        });

        List<Map<String, Object>> rows = db.sql("select id::text as id, aggregate_id, sent_at from outbox_events")
                .fetch().all().collectList().block();
        assertThat(rows).hasSize(ORDERS).allSatisfy(row -> assertThat(row.get("sent_at")).isNotNull());
        assertThat(received.keySet()).containsExactlyInAnyOrderElementsOf(rows.stream()
                .map(row -> (String) row.get("id")).toList());
        rows.forEach(row -> {
            Message message = received.get((String) row.get("id"));
            assertThat(message.getMessageProperties().getReceivedDeliveryMode()).isEqualTo(MessageDeliveryMode.PERSISTENT);
            assertThat(message.getMessageProperties().getHeaders()).containsEntry("event_type", "OrderCreated")
                    .containsEntry("aggregate_type", "order").containsEntry("aggregate_id", row.get("aggregate_id"))
                    .containsKeys("schema_version", "occurred_at");
            OrderCreated event = EventJson.read(message.getBody(), OrderCreated.class);
            assertThat(event.eventId().toString()).isEqualTo(row.get("id"));
            assertThat(event.orderId().toString()).isEqualTo(row.get("aggregate_id"));
        });
    }
}
