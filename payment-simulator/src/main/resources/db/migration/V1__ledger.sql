-- The provider's ledger: every charge and refund it ever made, kept across restarts. The unique idempotency keys
-- decide races between identical requests: the insert that loses does nothing, and its request reads the winner's row.
create table charges (
    charge_id       text        primary key,
    idempotency_key text        not null unique,
    -- SHA-256 of the request's canonical form (amount and reference): the same key with another request is refused.
    request_hash    text        not null,
    amount_cents    bigint      not null check (amount_cents > 0),
    reference       text        not null,
    -- Decided once, when the charge is made: a replay answers with the stored status.
    status          text        not null check (status in ('succeeded', 'declined')),
    created_at      timestamptz not null default now()
);

-- At most one refund per charge (unique charge_id), always of the whole amount.
create table refunds (
    refund_id       text        primary key,
    charge_id       text        not null unique references charges (charge_id),
    idempotency_key text        not null unique,
    amount_cents    bigint      not null check (amount_cents > 0),
    created_at      timestamptz not null default now()
);

create index charges_created_at on charges (created_at);
create index refunds_created_at on refunds (created_at);
