package com.example.coupon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.TestPropertySource;

import com.example.events.CouponEvent;
import com.example.events.CouponRedeemed;
import com.example.events.CouponRejected;
import com.example.events.CouponReleased;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.testsupport.ConsumerTestSupport;
import com.example.testsupport.FreshInfrastructure;

/** Redemptions as order events drive them, against the real broker and database. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@FreshInfrastructure
@TestPropertySource(properties = { "spring.cloud.stream.default.consumer.concurrency=4",
        "spring.cloud.stream.rabbit.default.consumer.prefetch=1" })
class RedemptionIntegrationTests extends ConsumerTestSupport {

    private static final AtomicLong IDS = new AtomicLong();

    @Override
    protected String replyExchange() {
        return CouponEvent.EXCHANGE;
    }

    @Test
    void redeemsAnActiveCouponForTheOrder() {
        String code = coupon();
        OrderCreated order = order(code);

        broker.publish(order);

        assertThat(awaitReplies(order.orderId(), 1)).containsExactly("CouponRedeemed");
        CouponRedeemed redeemed = reply(order.orderId(), CouponRedeemed.class);
        assertThat(redeemed.couponCode()).isEqualTo(code);
        assertThat(redeemed.discountPercent()).as("the coupon's discount").isEqualTo(10);
        assertThat(holder(code)).isEqualTo(order.orderId());
    }

    @Test
    void anOrderWithoutCouponNeedsNoneAndLeavesNoRow() {
        OrderCreated order = order(null);

        broker.publish(order);

        assertThat(awaitReplies(order.orderId(), 1)).containsExactly("CouponNotNeeded");
        assertThat(database.count("select count(*) from redemptions where order_id = ?", order.orderId())).isZero();
    }

    @Test
    void rejectsAnUnknownCoupon() {
        OrderCreated order = order("NOSUCHCOUPON");

        broker.publish(order);

        assertThat(awaitReplies(order.orderId(), 1)).containsExactly("CouponRejected");
        assertThat(reply(order.orderId(), CouponRejected.class).reason()).isEqualTo("unknown coupon");
    }

    @Test
    void rejectsACouponAnotherOrderHoldsAndRedeemsItAgainOnceThatOrderIsCancelled() {
        String code = coupon();
        OrderCreated first = order(code);
        OrderCreated second = order(code);
        broker.publish(first);
        awaitReplies(first.orderId(), 1);

        broker.publish(second);
        assertThat(awaitReplies(second.orderId(), 1)).containsExactly("CouponRejected");
        assertThat(reply(second.orderId(), CouponRejected.class).reason()).isEqualTo("already redeemed by another order");

        broker.publish(cancel(first.orderId()));
        assertThat(awaitReplies(first.orderId(), 2)).containsExactly("CouponRedeemed", "CouponReleased");
        assertThat(reply(first.orderId(), CouponReleased.class).couponCode()).isEqualTo(code);
        assertThat(holder(code)).isNull();

        OrderCreated third = order(code);
        broker.publish(third);
        assertThat(awaitReplies(third.orderId(), 1)).containsExactly("CouponRedeemed");
        assertThat(holder(code)).isEqualTo(third.orderId());
    }

    @Test
    void aSecondCancelRestoresNothingAndAnswersNothing() {
        String code = coupon();
        OrderCreated order = order(code);
        broker.publish(order);
        awaitReplies(order.orderId(), 1);

        broker.publish(cancel(order.orderId()));
        OrderCancelled again = cancel(order.orderId());
        broker.publish(again);

        await().atMost(PATIENCE).until(() ->
                database.count("select count(*) from processed_events where event_id = ?", again.eventId()) == 1);
        assertThat(database.replies(order.orderId())).containsExactly("CouponRedeemed", "CouponReleased");
        assertThat(status(order.orderId())).isEqualTo("RELEASED");
    }

    @Test
    void aCancelBeforeTheOrderLeavesATombstoneSoTheLateOrderRedeemsNothing() {
        String code = coupon();
        OrderCreated order = order(code);
        OrderCancelled early = cancel(order.orderId());

        broker.publish(early);
        await().atMost(PATIENCE).until(() -> "CANCELLED".equals(status(order.orderId())));
        broker.publish(order);

        assertThat(awaitReplies(order.orderId(), 1)).containsExactly("CouponRejected");
        assertThat(reply(order.orderId(), CouponRejected.class).reason()).contains("was cancelled");
        assertThat(holder(code)).isNull();
    }

    @Test
    void twentyOrdersRacingForOneCouponRedeemItExactlyOnce() {
        String code = coupon();
        List<OrderCreated> orders = IntStream.range(0, 20).mapToObj(i -> order(code)).toList();

        orders.parallelStream().forEach(broker::publish);

        await().atMost(PATIENCE).until(() -> orders.stream().allMatch(order -> database.replies(order.orderId()).size() == 1));
        List<Long> winners = orders.stream().map(OrderCreated::orderId)
                .filter(orderId -> database.replies(orderId).equals(List.of("CouponRedeemed"))).toList();
        assertThat(winners).hasSize(1);
        assertThat(orders.stream().filter(order -> database.replies(order.orderId()).equals(List.of("CouponRejected"))))
                .hasSize(19);
        assertThat(holder(code)).isEqualTo(winners.get(0));
    }

    private String coupon() {
        String code = "C" + IDS.incrementAndGet();
        database.execute("insert into coupons (code, discount_percent) values (?, 10)", code);
        return code;
    }

    private static OrderCreated order(String couponCode) {
        return new OrderCreated(UUID.randomUUID(), IDS.incrementAndGet() + 100_000, 7L, List.of(1L), couponCode,
                Instant.now());
    }

    private static OrderCancelled cancel(long orderId) {
        return new OrderCancelled(UUID.randomUUID(), orderId, "inventory: insufficient stock", Instant.now());
    }

    private Long holder(String code) {
        List<java.util.Map<String, Object>> rows = database.rows(
                "select order_id from redemptions where coupon_code = ? and status = 'REDEEMED'", code);
        assertThat(rows).hasSizeLessThanOrEqualTo(1);
        return rows.isEmpty() ? null : (Long) rows.get(0).get("order_id");
    }

    private String status(long orderId) {
        List<java.util.Map<String, Object>> rows = database.rows("select status from redemptions where order_id = ?", orderId);
        return rows.isEmpty() ? null : (String) rows.get(0).get("status");
    }
}
