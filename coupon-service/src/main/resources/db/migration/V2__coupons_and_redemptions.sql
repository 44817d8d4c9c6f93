-- Coupons an operator defined. Whether an order holds one is not stored here but in redemptions,
-- where a unique index, not application code, lets at most one order hold a coupon at any time.
create table coupons (
    code             text        primary key check (code ~ '^[A-Za-z0-9_-]{1,64}$'),
    discount_percent integer     not null check (discount_percent between 1 and 100),
    created_at       timestamptz not null default now(),
    updated_at       timestamptz not null default now()
);

-- One row per order coupon-service heard of, written by the order's first event and never deleted:
--   REDEEMED  the order holds coupon_code
--   REJECTED  the coupon could not be redeemed (reason says why; coupon_code may name no coupon)
--   RELEASED  the order held coupon_code and gave it back when it was cancelled
--   CANCELLED the cancel came first (a tombstone, no coupon): a late OrderCreated redeems nothing
create table redemptions (
    order_id    bigint      primary key,
    coupon_code text,
    status      text        not null check (status in ('REDEEMED', 'REJECTED', 'RELEASED', 'CANCELLED')),
    reason      text,
    created_at  timestamptz not null default now(),
    updated_at  timestamptz not null default now(),
    constraint redemptions_holder_names_its_coupon check (status = 'CANCELLED' or coupon_code is not null),
    constraint redemptions_rejected_have_reason check (status <> 'REJECTED' or reason is not null)
);

-- The rule itself: of all orders, at most one holds a given coupon. Two orders racing for it both
-- insert a REDEEMED row; the second waits for the first and then conflicts.
create unique index redemptions_one_holder_per_coupon on redemptions (coupon_code) where status = 'REDEEMED';
