-- One row per business intent. (user_id, idempotency_key) names the intent; the unique constraint,
-- not application code, decides which of several concurrent requests creates the order.
create table orders (
    id                  bigint generated always as identity primary key,
    user_id             bigint      not null check (user_id > 0),
    idempotency_key     uuid        not null,
    -- SHA-256 of the canonical request (user, sorted sku ids, coupon): tells a replay from a key reused
    -- for a different request.
    request_fingerprint text        not null,
    status              text        not null default 'CREATED' check (status in ('CREATED', 'CONFIRMED', 'REJECTED')),
    inventory_step      text        not null default 'PENDING',
    coupon_step         text        not null default 'PENDING',
    risk_step           text        not null default 'PENDING',
    coupon_code         text,
    rejection_reason    text,
    created_at          timestamptz not null default now(),
    updated_at          timestamptz not null default now(),
    constraint orders_user_idempotency_key unique (user_id, idempotency_key),
    constraint orders_steps_known check (
        inventory_step in ('PENDING', 'OK', 'REJECTED', 'NOT_NEEDED', 'COMPENSATED')
        and coupon_step in ('PENDING', 'OK', 'REJECTED', 'NOT_NEEDED', 'COMPENSATED')
        and risk_step in ('PENDING', 'OK', 'REJECTED', 'NOT_NEEDED', 'COMPENSATED'))
);

-- The sku ids of an order in request order; a repeated sku id is one more unit.
create table order_lines (
    order_id bigint not null references orders (id) on delete cascade,
    line_no  integer not null,
    sku_id   bigint  not null check (sku_id > 0),
    primary key (order_id, line_no)
);
