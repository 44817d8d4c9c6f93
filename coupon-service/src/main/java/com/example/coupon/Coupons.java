package com.example.coupon;

import java.time.Instant;
import java.util.UUID;

import org.springframework.stereotype.Service;

import com.example.coupon.persistence.CouponRepository;
import com.example.coupon.persistence.RedemptionRepository;
import com.example.events.CouponEvent;
import com.example.events.CouponNotNeeded;
import com.example.events.CouponRedeemed;
import com.example.events.CouponRejected;
import com.example.events.CouponReleased;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;

import reactor.core.publisher.Mono;

/**
 * Redeems and restores coupons for orders. The event methods run inside the inbox transaction, so
 * their effect and their answer commit together, once per event. Each order has one redemptions
 * row, written by whichever of its events comes first; every answer is read from that row.
 */
@Service
public class Coupons {

    static final String UNKNOWN = "unknown coupon";
    static final String TAKEN = "already redeemed by another order";

    private final CouponRepository coupons;
    private final RedemptionRepository redemptions;

    Coupons(CouponRepository coupons, RedemptionRepository redemptions) {
        this.coupons = coupons;
        this.redemptions = redemptions;
    }

    /**
     * Redeems the order's coupon if it is ACTIVE. The unique index on REDEEMED rows decides between
     * orders racing for one coupon. An order cancelled before it arrived redeems nothing and is
     * answered {@link CouponRejected}; an order without a coupon is answered {@link CouponNotNeeded}.
     */
    public Mono<CouponEvent> redeem(OrderCreated order) {
        if (order.couponCode() == null) {
            return Mono.just(new CouponNotNeeded(UUID.randomUUID(), order.orderId(), Instant.now()));
        }
        return redemptions.find(order.orderId())
                .switchIfEmpty(Mono.defer(() -> redeemNew(order.orderId(), order.couponCode())))
                .map(redemption -> answer(order, redemption));
    }

    private Mono<Redemption> redeemNew(long orderId, String code) {
        return redemptions.redeemIfFree(orderId, code)
                .map(discount -> new Redemption(orderId, code, RedemptionStatus.REDEEMED, null, discount))
                .switchIfEmpty(Mono.defer(() -> coupons.exists(code)
                        .flatMap(exists -> redemptions.rejectIfAbsent(orderId, code, exists ? TAKEN : UNKNOWN))
                        // The order's row as it is now: ours, or a cancel's tombstone that came in between.
                        .then(redemptions.find(orderId))));
    }

    /**
     * Restores the coupon the order holds, once: only a REDEEMED row moves (to RELEASED), answered
     * with {@link CouponReleased}. A cancel that arrives before its order leaves a tombstone. Nothing
     * to restore (no coupon, rejected, already released, or the tombstone) means no answer: there is
     * nothing to undo, and {@link CouponReleased} always names a coupon.
     */
    public Mono<CouponReleased> release(OrderCancelled cancel) {
        return redemptions.tombstoneIfAbsent(cancel.orderId(), "cancelled before the order arrived: " + cancel.reason())
                .flatMap(inserted -> inserted ? Mono.<String>empty() : redemptions.release(cancel.orderId()))
                .map(code -> new CouponReleased(UUID.randomUUID(), cancel.orderId(), code, Instant.now()));
    }

    /** Creates the coupon, or changes its discount; whether it is held stays as it is. */
    public Mono<Coupon> define(String code, int discountPercent) {
        return coupons.upsert(code, discountPercent).then(coupons.find(code));
    }

    public Mono<Coupon> find(String code) {
        return coupons.find(code);
    }

    private static CouponEvent answer(OrderCreated order, Redemption redemption) {
        UUID eventId = UUID.randomUUID();
        Instant now = Instant.now();
        String code = order.couponCode();
        return switch (redemption.status()) {
            case REDEEMED -> new CouponRedeemed(eventId, order.orderId(), redemption.couponCode(),
                    redemption.discountPercent(), now);
            case REJECTED -> new CouponRejected(eventId, order.orderId(), code, redemption.reason(), now);
            case RELEASED, CANCELLED -> new CouponRejected(eventId, order.orderId(), code,
                    "order " + order.orderId() + " was cancelled: no coupon is redeemed for it", now);
        };
    }
}
