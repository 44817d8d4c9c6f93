package com.example.coupon.messaging;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.boot.test.context.SpringBootTest;

import com.example.events.CouponEvent;
import com.example.events.OrderCreated;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.InboxContract;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@FreshInfrastructure
class CouponInboxIntegrationTests extends InboxContract {

    private static final AtomicLong ORDERS = new AtomicLong();

    @Override
    protected String queue() {
        return "order.events.coupon-service";
    }

    @Override
    protected String replyExchange() {
        return CouponEvent.EXCHANGE;
    }

    /** A coupon of its own, so the order's redemption is the only one of that coupon. */
    @Override
    protected OrderCreated newOrder() {
        long orderId = ORDERS.incrementAndGet();
        String code = "INBOX" + orderId;
        database.execute("insert into coupons (code, discount_percent) values (?, 10)", code);
        return new OrderCreated(UUID.randomUUID(), orderId, 7L, List.of(1L), code, Instant.now());
    }

    @Override
    protected long effects(OrderCreated order) {
        return database.count("select count(*) from redemptions where coupon_code = ? and status = 'REDEEMED'",
                order.couponCode());
    }

    @Override
    protected String expectedReply() {
        return "CouponRedeemed";
    }
}
