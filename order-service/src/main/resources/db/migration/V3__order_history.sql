-- Every reply the order's state machine saw, applied or ignored, with the state it left the order
-- in: the order's timeline, and the record of late or illegal transitions.
create table order_history (
    id             bigint generated always as identity primary key,
    order_id       bigint      not null references orders (id) on delete cascade,
    event_id       uuid        not null,
    event_type     text        not null,
    applied        boolean     not null,
    note           text,
    status         text        not null,
    inventory_step text        not null,
    coupon_step    text        not null,
    risk_step      text        not null,
    recorded_at    timestamptz not null default now()
);

create index order_history_order on order_history (order_id, id);
