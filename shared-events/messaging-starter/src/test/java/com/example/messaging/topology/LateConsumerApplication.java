package com.example.messaging.topology;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

import com.example.events.CouponEvent;
import com.example.events.DomainEvent;
import com.example.events.InventoryEvent;
import com.example.events.OrderCreated;
import com.example.events.PaymentEvent;
import com.example.events.RiskEvent;
import com.example.messaging.inbox.EventHandler;
import com.example.testsupport.TestInfrastructure;

import reactor.core.publisher.Flux;

/**
 * A consumer service as small as one can be: the shared auto-configuration (inbox, binder and all) and the handlers
 * of one group of the contract, chosen by profile ({@code risk-service} or {@code order-service}), which record what
 * they are given. Started by hand, so that a test decides what exists on the broker before its binder declares.
 */
@SpringBootApplication
class LateConsumerApplication {

    /** The events the handlers were given, in order. */
    static final class Received {

        private final BlockingQueue<DomainEvent> events = new LinkedBlockingQueue<>();

        DomainEvent next(Duration timeout) throws InterruptedException {
            return events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        Flux<DomainEvent> record(DomainEvent event) {
            events.add(event);
            return Flux.empty();
        }
    }

    @Bean
    Received received() {
        return new Received();
    }

    @Configuration(proxyBeanMethods = false)
    @Profile("risk-service")
    static class RiskServiceHandlers {

        @Bean
        EventHandler<OrderCreated> created(Received received) {
            return EventHandler.of(OrderCreated.class, received::record);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Profile("order-service")
    static class OrderServiceHandlers {

        @Bean
        EventHandler<InventoryEvent> inventory(Received received) {
            return EventHandler.of(InventoryEvent.class, received::record);
        }

        @Bean
        EventHandler<CouponEvent> coupon(Received received) {
            return EventHandler.of(CouponEvent.class, received::record);
        }

        @Bean
        EventHandler<RiskEvent> risk(Received received) {
            return EventHandler.of(RiskEvent.class, received::record);
        }

        @Bean
        EventHandler<PaymentEvent> payment(Received received) {
            return EventHandler.of(PaymentEvent.class, received::record);
        }
    }

    /** Starts the given group's consumer on a database of its own and the given vhost. */
    static ConfigurableApplicationContext start(String group, String vhost) {
        return start(group, vhost, Map.of());
    }

    /** @param overrides properties that win over the test infrastructure's (another broker user, say) */
    static ConfigurableApplicationContext start(String group, String vhost, Map<String, Object> overrides) {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        String database = infrastructure.createDatabase("it_late_consumer");
        Map<String, Object> properties = new LinkedHashMap<>(infrastructure.springProperties(database, vhost));
        properties.put("spring.application.name", group);
        properties.put("service.database.name", database);
        properties.put("spring.main.web-application-type", "none");
        properties.put("messaging.relay.enabled", "false");
        properties.putAll(overrides);
        // As arguments: they must win over the test's application.yml and the starters' defaults.
        String[] arguments = properties.entrySet().stream().map(entry -> "--" + entry.getKey() + "=" + entry.getValue())
                .toArray(String[]::new);
        return new SpringApplicationBuilder(LateConsumerApplication.class).profiles(group).run(arguments);
    }
}
