package com.example.e2e.check;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.example.e2e.topology.Service;

/**
 * Everything the checker looks at once the system is quiet, read from the services' databases and
 * the broker. Plain data, so the checker's tests can build states by hand.
 *
 * @param outbox      every service's outbox rows
 * @param processed   every service's processed_events: event id to event type
 * @param redemptions coupon-service's record of each order it heard of: REDEEMED, REJECTED, RELEASED or CANCELLED
 * @param assessments risk assessments by order id (a list, so that two for one order can be seen)
 * @param prices      what things cost: sku prices, coupon discounts, order amounts
 * @param money       what moved at the payment provider, and payment-service's record of each payment
 */
public record SystemState(List<Order> orders, Map<Service, List<OutboxRow>> outbox,
        Map<Service, Map<UUID, String>> processed, Map<Long, Stock> stock, Map<Long, Reservation> reservations,
        Map<String, Coupon> coupons, Map<Long, String> redemptions, Map<Long, List<String>> assessments,
        List<Queue> queues, Prices prices, Money money) {

    public SystemState {
        orders = List.copyOf(orders);
        outbox = Map.copyOf(outbox);
        processed = Map.copyOf(processed);
        stock = Map.copyOf(stock);
        reservations = Map.copyOf(reservations);
        coupons = Map.copyOf(coupons);
        redemptions = Map.copyOf(redemptions);
        assessments = Map.copyOf(assessments);
        queues = List.copyOf(queues);
    }

    /** A row of order-service's {@code orders} with its lines. */
    public record Order(long id, long userId, UUID idempotencyKey, String status, String inventoryStep,
            String couponStep, String riskStep, String paymentStep, String couponCode, String rejectionReason,
            List<Long> skuIds) {

        public Order {
            skuIds = List.copyOf(skuIds);
        }
    }

    /**
     * A row of a service's {@code outbox_events}.
     *
     * @param orderId the {@code order_id} of the payload (every event of the contract names its order), null without
     */
    public record OutboxRow(UUID id, String aggregateType, String aggregateId, String eventType, String exchange,
            Long orderId, boolean sent, boolean parked) {
    }

    /** A row of inventory's stock. */
    public record Stock(long skuId, int available, int reserved) {
    }

    /** Inventory's record of an order: RESERVED, REJECTED or RELEASED, with the units it holds or held. */
    public record Reservation(long orderId, String status, List<Long> skuIds) {

        public Reservation {
            skuIds = List.copyOf(skuIds);
        }
    }

    /**
     * A coupon and the orders that hold it (redeemed and not released): REDEEMED by one order, or ACTIVE.
     * A list, so that a coupon held twice can be seen.
     */
    public record Coupon(String code, List<Long> holders) {

        public Coupon {
            holders = List.copyOf(holders);
        }

        public boolean isHeldBy(long orderId) {
            return holders.contains(orderId);
        }
    }

    /**
     * What things cost.
     *
     * @param unitPrices   inventory's price of each sku, in cents
     * @param discounts    coupon-service's discount of each coupon, in percent
     * @param orderAmounts order-service's {@code amount_cents} of each order that has one
     */
    public record Prices(Map<Long, Long> unitPrices, Map<String, Integer> discounts, Map<Long, Long> orderAmounts) {

        public Prices {
            unitPrices = Map.copyOf(unitPrices);
            discounts = Map.copyOf(discounts);
            orderAmounts = Map.copyOf(orderAmounts);
        }
    }

    /**
     * Money: the provider's ledger (GET /ledger of the payment simulator: everything it ever did) and payment-service's
     * payments.
     *
     * @param payments payment-service's status of each order's payment
     */
    public record Money(List<Charge> charges, List<Refund> refunds, Map<Long, String> payments) {

        public Money {
            charges = List.copyOf(charges);
            refunds = List.copyOf(refunds);
            payments = Map.copyOf(payments);
        }
    }

    /** A charge the provider made: {@code succeeded} or {@code declined}; {@code reference} names the order. */
    public record Charge(String chargeId, String reference, long amountCents, String status) {

        public boolean succeeded() {
            return status.equals("succeeded");
        }
    }

    /** A refund the provider made, of the whole charge. */
    public record Refund(String refundId, String chargeId, long amountCents) {
    }

    /** A queue on the broker and what is still in it. */
    public record Queue(String name, long messages, long unacknowledged) {

        public boolean isDeadLetterQueue() {
            return name.endsWith(".dlq");
        }
    }
}
