package com.example.messaging.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.cloud.stream.config.BindingProperties;
import org.springframework.cloud.stream.config.BindingServiceProperties;

import com.example.events.CouponEvent;
import com.example.events.DomainEvent;
import com.example.events.InventoryEvent;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.events.PaymentEvent;
import com.example.events.RiskEvent;

import reactor.core.publisher.Flux;

/**
 * The inbox's binding follows the handlers, and a group of the contract's table must handle exactly its row (a
 * group outside the table is only warned about).
 */
class InboxBindingTests {

    private static final InboxProperties.Batch ONE_AT_A_TIME = new InboxProperties.Batch(1, 2, Duration.ofSeconds(5), null,
            Duration.ZERO, List.of());

    @Test
    void handlersThatMatchTheContractGiveTheDestinations() {
        BindingServiceProperties bindings = bindingsOf("order-service");

        new InboxBinding(inbox(handler(InventoryEvent.class), handler(CouponEvent.class), handler(RiskEvent.class),
                handler(PaymentEvent.class)), bindings, ONE_AT_A_TIME);

        assertThat(bindings.getBindingProperties(InboxBinding.NAME).getDestination())
                .isEqualTo("coupon.events,inventory.events,payment.events,risk.events");
        assertThat(bindings.getConsumerProperties(InboxBinding.NAME).isBatchMode()).isFalse();
    }

    @Test
    void aHandlerTheContractDoesNotListRefusesToStart() {
        assertThatThrownBy(() -> new InboxBinding(inbox(handler(OrderCreated.class), handler(OrderCancelled.class)),
                bindingsOf("risk-service"), ONE_AT_A_TIME))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("risk-service handle {order.events=[OrderCancelled, OrderCreated]}")
                .hasMessageContaining("consumes {order.events=[OrderCreated]}");
    }

    @Test
    void aTypeTheContractListsButNoHandlerHandlesRefusesToStart() {
        assertThatThrownBy(() -> new InboxBinding(inbox(handler(OrderCreated.class)), bindingsOf("inventory-service"), ONE_AT_A_TIME))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("consumes {order.events=[OrderCancelled, OrderCreated]}");
    }

    @Test
    void aGroupTheContractDoesNotKnowStartsWithTheDestinationsOfItsHandlers() {
        BindingServiceProperties bindings = bindingsOf("shipping-service");

        new InboxBinding(inbox(handler(OrderCreated.class)), bindings, ONE_AT_A_TIME);

        assertThat(bindings.getBindingProperties(InboxBinding.NAME).getDestination()).isEqualTo("order.events");
    }

    @Test
    void batchConsumptionLeavesTheBindingOneDeliveryAtATime() {
        BindingServiceProperties bindings = bindingsOf("risk-service");

        new InboxBinding(inbox(handler(OrderCreated.class)), bindings,
                new InboxProperties.Batch(16, 2, Duration.ofSeconds(5), null, Duration.ZERO,
                        List.of()));

        // The inbox gathers the batches itself (InboxLanes): the binder's batch mode would wait for them to fill.
        assertThat(bindings.getConsumerProperties(InboxBinding.NAME).isBatchMode()).isFalse();
    }

    private static BindingServiceProperties bindingsOf(String group) {
        BindingServiceProperties bindings = new BindingServiceProperties();
        BindingProperties binding = new BindingProperties();
        binding.setGroup(group);
        bindings.getBindings().put(InboxBinding.NAME, binding);
        return bindings;
    }

    /** Only the handlers matter to the binding. */
    private static Inbox inbox(EventHandler<?>... handlers) {
        return new Inbox(List.of(handlers), null, null, null, null, null, null);
    }

    private static <E extends DomainEvent> EventHandler<E> handler(Class<E> type) {
        return EventHandler.of(type, event -> Flux.empty());
    }
}
