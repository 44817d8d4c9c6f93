package com.example.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.example.events.Subscriptions.Subscription;

/** The subscription table is the contract's, and every queue it implies is named as the binder names it. */
class SubscriptionsTests {

    @Test
    void eachGroupConsumesWhatTheContractSays() {
        assertThat(Subscriptions.groups()).containsExactly("coupon-service", "inventory-service", "order-service",
                "payment-service", "risk-service");
        assertThat(Subscriptions.routingKeysOf("inventory-service"))
                .isEqualTo(Map.of("order.events", Set.of("OrderCancelled", "OrderCreated")));
        assertThat(Subscriptions.routingKeysOf("coupon-service"))
                .isEqualTo(Map.of("order.events", Set.of("OrderCancelled", "OrderCreated")));
        assertThat(Subscriptions.routingKeysOf("risk-service")).isEqualTo(Map.of("order.events", Set.of("OrderCreated")));
        assertThat(Subscriptions.routingKeysOf("order-service")).isEqualTo(Map.of(
                "inventory.events", Set.of("InventoryReserved", "InventoryRejected", "InventoryReleased"),
                "coupon.events", Set.of("CouponRedeemed", "CouponRejected", "CouponNotNeeded", "CouponReleased"),
                "risk.events", Set.of("RiskApproved", "RiskRejected"),
                "payment.events", Set.of("PaymentSucceeded", "PaymentFailed", "PaymentRefunded")));
        assertThat(Subscriptions.routingKeysOf("payment-service"))
                .isEqualTo(Map.of("order.events", Set.of("OrderCancelled", "PaymentRequested")));
    }

    @Test
    void anUnknownGroupConsumesNothing() {
        assertThat(Subscriptions.consumedBy("shipping-service")).isEmpty();
        assertThat(Subscriptions.routingKeysOf("shipping-service")).isEmpty();
    }

    @Test
    void everyQueueIsExchangeDotGroupWithItsDeadLetterQueue() {
        assertThat(Subscriptions.all()).extracting(Subscription::queue, Subscription::deadLetterQueue).containsExactly(
                tuple("coupon.events.order-service", "coupon.events.order-service.dlq"),
                tuple("inventory.events.order-service", "inventory.events.order-service.dlq"),
                tuple("order.events.coupon-service", "order.events.coupon-service.dlq"),
                tuple("order.events.inventory-service", "order.events.inventory-service.dlq"),
                tuple("order.events.payment-service", "order.events.payment-service.dlq"),
                tuple("order.events.risk-service", "order.events.risk-service.dlq"),
                tuple("payment.events.order-service", "payment.events.order-service.dlq"),
                tuple("risk.events.order-service", "risk.events.order-service.dlq"));
    }

    /** An event nobody consumes would be returned to its publisher as unroutable and parked in its outbox. */
    @Test
    void everyEventOfTheContractHasAtLeastOneSubscriber() {
        Set<String> consumed = Subscriptions.all().stream().flatMap(subscription -> subscription.eventTypes().stream())
                .collect(Collectors.toSet());
        assertThat(consumed).isEqualTo(EventTypes.all().keySet());
    }

    @Test
    void everyRoutingKeyIsAnEventOfThatExchange() {
        for (Subscription subscription : Subscriptions.all()) {
            assertThat(subscription.eventTypes()).allSatisfy(type -> assertThat(
                    EventTypes.exchangeOf(EventTypes.forName(type).orElseThrow())).isEqualTo(subscription.exchange()));
        }
    }

    @Test
    void theExchangesAreOnePerProducer() {
        assertThat(EventTypes.exchanges()).containsExactly("coupon.events", "inventory.events", "order.events",
                "payment.events", "risk.events");
    }
}
