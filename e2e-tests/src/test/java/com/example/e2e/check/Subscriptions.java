package com.example.e2e.check;

import java.util.Map;
import java.util.Set;

import com.example.e2e.topology.Service;

/**
 * Who publishes what and who applies it, as docs/contract.md's event table says: the exchange each
 * service's outbox publishes to, and the event types each service records in processed_events.
 */
final class Subscriptions {

    static final String ORDER_EVENTS = "order.events";

    private static final Map<Service, String> EXCHANGES = Map.of(
            Service.ORDER, ORDER_EVENTS,
            Service.INVENTORY, "inventory.events",
            Service.COUPON, "coupon.events",
            Service.RISK, "risk.events",
            Service.PAYMENT, "payment.events");

    private static final Set<String> REPLIES = Set.of("InventoryReserved", "InventoryRejected", "InventoryReleased",
            "CouponRedeemed", "CouponRejected", "CouponNotNeeded", "CouponReleased", "RiskApproved", "RiskRejected",
            "PaymentSucceeded", "PaymentFailed", "PaymentRefunded");

    /**
     * The order events each downstream service applies; risk has nothing to undo, so it ignores OrderCancelled, and
     * only payment-service hears PaymentRequested.
     */
    private static final Map<Service, Set<String>> APPLIES = Map.of(
            Service.ORDER, REPLIES,
            Service.INVENTORY, Set.of("OrderCreated", "OrderCancelled"),
            Service.COUPON, Set.of("OrderCreated", "OrderCancelled"),
            Service.RISK, Set.of("OrderCreated"),
            Service.PAYMENT, Set.of("PaymentRequested", "OrderCancelled"));

    private Subscriptions() {
    }

    static String exchangeOf(Service service) {
        return EXCHANGES.get(service);
    }

    static Set<String> appliedBy(Service service) {
        return APPLIES.get(service);
    }

    /** The services whose outbox feeds the given consumer. */
    static Set<Service> publishersFor(Service consumer) {
        return consumer == Service.ORDER ? Set.of(Service.INVENTORY, Service.COUPON, Service.RISK, Service.PAYMENT)
                : Set.of(Service.ORDER);
    }
}
