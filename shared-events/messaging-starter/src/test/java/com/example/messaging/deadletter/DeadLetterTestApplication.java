package com.example.messaging.deadletter;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.reactivestreams.Publisher;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

import com.example.events.DomainEvent;
import com.example.events.OrderCreated;
import com.example.messaging.inbox.EventHandler;
import com.example.messaging.inbox.PoisonMessageException;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A service that consumes {@code OrderCreated} through the inbox, with a handler whose bug can be switched on for
 * chosen orders (their events are poison until it is fixed). It scans no package, as no service scans the
 * starter's.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class DeadLetterTestApplication {

    public static void main(String[] args) {
        SpringApplication.run(DeadLetterTestApplication.class, args);
    }

    @Bean
    OrdersHandler ordersHandler() {
        return new OrdersHandler();
    }

    /** Applies an order unless it is refused; remembers what it applied, in order. */
    static final class OrdersHandler implements EventHandler<OrderCreated> {

        final Set<Long> refused = ConcurrentHashMap.newKeySet();
        final List<Long> applied = new CopyOnWriteArrayList<>();

        @Override
        public Class<OrderCreated> eventType() {
            return OrderCreated.class;
        }

        @Override
        public Publisher<? extends DomainEvent> handle(OrderCreated event) {
            if (refused.contains(event.orderId())) {
                return Mono.error(new PoisonMessageException("order " + event.orderId() + " cannot be applied (bug)"));
            }
            applied.add(event.orderId());
            return Flux.empty();
        }
    }
}
