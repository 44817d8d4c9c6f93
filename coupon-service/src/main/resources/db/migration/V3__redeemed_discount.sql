-- The coupon's discount when the order redeemed it, so that an answer given again for the same order (a redelivered or
-- re-driven OrderCreated) names the same discount even after an operator changed the coupon's. Null for rejections,
-- tombstones and redemptions made before discounts travelled with CouponRedeemed.
alter table redemptions
    add column discount_percent integer check (discount_percent between 1 and 100);
