-- A sku's unit price (cents), which an operator sets with the stock; a sku that existed before costs 0 until then.
-- Bounded like the API (0..1,000,000,000): unlike the counts, nothing but the API ever writes it.
alter table stock
    add column price_cents bigint not null default 0 check (price_cents between 0 and 1000000000);

-- What the order's units cost when they were reserved (the sum of their skus' prices then), so that an answer given
-- again for the same order (a redelivered or re-driven OrderCreated) names the same amount whatever the prices are now.
-- Null for reservations made before prices existed, and for rejections and tombstones.
alter table reservations
    add column amount_cents bigint check (amount_cents >= 0);
