package com.example.e2e.check;

/** The properties the checker verifies, each with the sentence the report prints. */
public enum Invariant {

    QUIESCENT("the system went quiet: outboxes drained, queues empty, nothing unacknowledged, no order waiting"),
    ACKED_INTENT_HAS_ONE_ORDER("every ACKED intent has exactly one order, the one the client was told"),
    UNKNOWN_INTENT_ALL_OR_NOTHING("every UNKNOWN intent has no order, or one complete order"),
    FAILED_INTENT_HAS_NO_ORDER("every FAILED intent (final 4xx) has no order"),
    NO_DUPLICATE_ORDERS("no intent has two orders, and no order exists without an intent"),
    ORDER_EVENTS_ONCE("every order has exactly one OrderCreated (a rejected or cancelled one exactly one OrderCancelled, "
            + "a paid one exactly one PaymentRequested), sent"),
    OUTBOXES_DRAINED("no outbox row is unsent or parked, in any service"),
    CONSUMERS_SAW_EXACTLY_PUBLISHED("in each consumer, processed event ids equal published event ids"),
    INVENTORY_CONSERVED("per sku: initial stock = available + units held by live reservations, never negative"),
    RESERVATIONS_MATCH_ORDERS("each order reserved at most once, its own units; rejected orders hold nothing"),
    COUPONS_HELD_ONCE("each coupon held by at most one order, and only by a CONFIRMED one that asked for it"),
    ONE_RISK_ASSESSMENT("exactly one risk assessment per order"),
    ORDER_AMOUNTS("every CONFIRMED order costs its units at their skus' prices less its coupon's discount, rounded down"),
    MONEY_MOVED_ONCE("at most one succeeded charge per order, none without an order; a CONFIRMED order exactly one, of "
            + "its amount, not refunded; any other order no unrefunded charge; every refund the full charge, once; charged "
            + "minus refunded = the confirmed orders' amounts"),
    PAYMENTS_SETTLED("no payment is left CREATED or PROCESSING, and payment-service's record agrees with the ledger"),
    ORDERS_FINAL_AND_CONSISTENT("every order is CONFIRMED, REJECTED or CANCELLED, with steps matching the other services' data"),
    PLANNED_OUTCOMES("intents built to be confirmed are CONFIRMED, those built to be rejected are REJECTED, a cancelled "
            + "order CANCELLED (REJECTED when the cancellation was refused as too late), no valid request is refused"),
    DLQS_EMPTY("every dead-letter queue is empty"),
    FAULTS_BIT("the faults happened and exercised their windows");

    private final String sentence;

    Invariant(String sentence) {
        this.sentence = sentence;
    }

    public String sentence() {
        return sentence;
    }
}
