package com.example.coupon.messaging;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import com.example.events.CouponEvent;
import com.example.events.OrderCreated;
import com.example.testsupport.InboxFaultContract;
import com.example.testsupport.ServiceDatabase;

class CouponFaultIntegrationTests extends InboxFaultContract {

    private static final AtomicLong ORDERS = new AtomicLong();

    @Override
    protected String service() {
        return "coupon-service";
    }

    @Override
    protected OrderCreated newOrder(ServiceDatabase database) {
        long orderId = ORDERS.incrementAndGet();
        String code = "FAULT" + orderId;
        database.execute("insert into coupons (code, discount_percent) values (?, 10)", code);
        return new OrderCreated(UUID.randomUUID(), orderId, 7L, List.of(1L), code, Instant.now());
    }

    @Override
    protected long effects(ServiceDatabase database, OrderCreated order) {
        return database.count("select count(*) from redemptions where coupon_code = ? and status = 'REDEEMED'",
                order.couponCode());
    }

    @Override
    protected String replyExchange() {
        return CouponEvent.EXCHANGE;
    }

    @Override
    protected String expectedReply() {
        return "CouponRedeemed";
    }
}
