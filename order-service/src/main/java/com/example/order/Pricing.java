package com.example.order;

import com.example.events.CouponNotNeeded;
import com.example.events.CouponRedeemed;
import com.example.events.DomainEvent;
import com.example.events.InventoryReserved;

/**
 * What a reply says about the order's price: inventory's undiscounted total of the reserved units, or the coupon
 * step's discount (0 when the order has no coupon). Either may be unknown (null): a reply about something else, or
 * an event of an earlier version that carried no amount. The order's {@code amount_cents} follows from both.
 */
public record Pricing(Long subtotalCents, Integer discountPercent) {

    static final Pricing NONE = new Pricing(null, null);

    public static Pricing of(DomainEvent reply) {
        if (reply instanceof InventoryReserved reserved) {
            return new Pricing(reserved.amountCents(), null);
        }
        if (reply instanceof CouponRedeemed redeemed) {
            return new Pricing(null, redeemed.discountPercent());
        }
        if (reply instanceof CouponNotNeeded) {
            return new Pricing(null, 0);
        }
        return NONE;
    }

    /** What this reply says, over what was known before it. */
    Pricing over(Pricing known) {
        return new Pricing(subtotalCents != null ? subtotalCents : known.subtotalCents,
                discountPercent != null ? discountPercent : known.discountPercent);
    }

    /**
     * The amount to charge: the subtotal less the discount, rounded down; null while either is unknown. The same
     * formula as the orders table's generated column {@code amount_cents}, which is what the order body shows.
     */
    public Long amountCents() {
        return subtotalCents == null || discountPercent == null ? null
                : subtotalCents * (100 - discountPercent) / 100;
    }
}
