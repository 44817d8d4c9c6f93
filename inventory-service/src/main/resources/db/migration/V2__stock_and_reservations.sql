-- Units per sku: free to reserve (available) and held for orders (reserved). Reserving moves units from
-- available to reserved under row locks; the checks make a negative count impossible even for a bug.
create table stock (
    sku_id     bigint      primary key check (sku_id > 0),
    available  integer     not null check (available >= 0),
    reserved   integer     not null default 0 check (reserved >= 0),
    updated_at timestamptz not null default now()
);

-- One row per order inventory has heard of, written by the order's first event and never deleted:
-- the reservation (all units or none), or the tombstone of a cancel that arrived before the order
-- (status RELEASED, no sku ids), which keeps a late OrderCreated from reserving anything.
create table reservations (
    order_id   bigint      primary key,
    status     text        not null check (status in ('RESERVED', 'REJECTED', 'RELEASED')),
    sku_ids    bigint[]    not null,
    reason     text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint reservations_rejected_have_reason check (status <> 'REJECTED' or reason is not null)
);
