-- What the order costs. Inventory answers with the undiscounted total of the reserved units (InventoryReserved), the
-- coupon step with the coupon's discount (CouponRedeemed; 0 when the order has no coupon): amount_cents follows from
-- both, rounded down (integer division of non-negative numbers), and is null until both are known. Null for orders
-- placed before amounts existed.
alter table orders
    add column subtotal_cents bigint check (subtotal_cents >= 0),
    add column discount_percent integer check (discount_percent between 0 and 100),
    add column amount_cents bigint generated always as (subtotal_cents * (100 - discount_percent) / 100) stored;
