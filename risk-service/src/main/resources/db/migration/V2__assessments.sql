-- One assessment per order (its primary key), written by the order's first OrderCreated and never
-- changed: the same order arriving again, under any event id, finds it and gets the same answer.
create table assessments (
    order_id          bigint      primary key,
    user_id           bigint      not null,
    units             integer     not null check (units > 0),
    decision          text        not null check (decision in ('APPROVED', 'REJECTED')),
    reasons           text[]      not null,
    -- When the order was placed (the event's occurred_at). The per-minute rule counts orders by this
    -- time, from this table: an order is counted once, however often its event is delivered.
    order_occurred_at timestamptz not null,
    assessed_at       timestamptz not null default now(),
    constraint assessments_rejected_have_reasons check ((decision = 'REJECTED') = (cardinality(reasons) > 0))
);

create index assessments_user_order_time on assessments (user_id, order_occurred_at);
