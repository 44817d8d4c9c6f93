package com.example.order;

import com.example.events.CouponEvent;
import com.example.events.CouponNotNeeded;
import com.example.events.CouponRedeemed;
import com.example.events.CouponRejected;
import com.example.events.DomainEvent;
import com.example.events.InventoryEvent;
import com.example.events.InventoryRejected;
import com.example.events.InventoryReserved;
import com.example.events.PaymentEvent;
import com.example.events.PaymentFailed;
import com.example.events.PaymentSucceeded;
import com.example.events.RiskApproved;
import com.example.events.RiskEvent;
import com.example.events.RiskRejected;

/** A downstream service's answer about one step of an order, reduced to what the state machine needs. */
public record StepReply(Step step, Outcome outcome, String reason) {

    /** What the service did. */
    public enum Outcome {
        /** The step's effect is in place (stock reserved, coupon redeemed, risk approved, payment charged). */
        SUCCEEDED,
        /** Nothing to do for this order (no coupon). */
        NOT_NEEDED,
        /** The service refused; nothing is held. */
        REJECTED,
        /** The effect was undone after the order was cancelled (for the payment: refunded). */
        RELEASED
    }

    public static StepReply of(DomainEvent event) {
        if (event instanceof InventoryEvent) {
            return inventory(event);
        }
        if (event instanceof CouponEvent) {
            return coupon(event);
        }
        if (event instanceof RiskEvent) {
            return risk(event);
        }
        if (event instanceof PaymentEvent) {
            return payment(event);
        }
        throw new IllegalArgumentException(event.eventType() + " is not a reply to an order");
    }

    private static StepReply inventory(DomainEvent event) {
        if (event instanceof InventoryReserved) {
            return new StepReply(Step.INVENTORY, Outcome.SUCCEEDED, null);
        }
        if (event instanceof InventoryRejected rejected) {
            return new StepReply(Step.INVENTORY, Outcome.REJECTED, "inventory: " + rejected.reason());
        }
        return new StepReply(Step.INVENTORY, Outcome.RELEASED, null);
    }

    private static StepReply coupon(DomainEvent event) {
        if (event instanceof CouponRedeemed) {
            return new StepReply(Step.COUPON, Outcome.SUCCEEDED, null);
        }
        if (event instanceof CouponNotNeeded) {
            return new StepReply(Step.COUPON, Outcome.NOT_NEEDED, null);
        }
        if (event instanceof CouponRejected rejected) {
            return new StepReply(Step.COUPON, Outcome.REJECTED, "coupon: " + rejected.reason());
        }
        return new StepReply(Step.COUPON, Outcome.RELEASED, null);
    }

    private static StepReply risk(DomainEvent event) {
        if (event instanceof RiskApproved) {
            return new StepReply(Step.RISK, Outcome.SUCCEEDED, null);
        }
        return new StepReply(Step.RISK, Outcome.REJECTED, "risk: " + String.join("; ", ((RiskRejected) event).reasons()));
    }

    private static StepReply payment(DomainEvent event) {
        if (event instanceof PaymentSucceeded) {
            return new StepReply(Step.PAYMENT, Outcome.SUCCEEDED, null);
        }
        if (event instanceof PaymentFailed failed) {
            return new StepReply(Step.PAYMENT, Outcome.REJECTED, "payment: " + failed.reason());
        }
        return new StepReply(Step.PAYMENT, Outcome.RELEASED, null);
    }
}
