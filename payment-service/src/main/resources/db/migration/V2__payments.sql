-- One payment per order (its primary key). Its status moves only as PaymentStateMachine lists, each move an update
-- guarded by the status it moves from. (outbox_events and processed_events come from the messaging starter's shared
-- migration V1, so this service's own migrations start at V2.)
create table payments (
    order_id         bigint      primary key,
    -- Null only for a payment cancelled before it was asked for (the OrderCancelled came first).
    user_id          bigint,
    amount_cents     bigint      check (amount_cents > 0),
    status           text        not null
                     check (status in ('CREATED', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'REFUNDED')),
    -- The Idempotency-Key of every charge request and look-up, derived from the order (payment-<order_id>-charge),
    -- never random: any instance, after any crash, asks the provider about the same charge with the same key, so
    -- asking again can only find the first charge, never make a second one.
    charge_key       text        not null unique,
    charge_id        text,
    -- The Idempotency-Key of the refund (payment-<order_id>-refund), set when the order is cancelled.
    refund_key       text,
    refund_id        text,
    -- The order was cancelled while the charge was in flight or done: the worker refunds it once it has succeeded.
    cancel_requested boolean     not null default false,
    failure_reason   text,
    -- Tries of the current step (the charge, then the refund), counting the one in flight.
    attempts         integer     not null default 0,
    -- When the worker may take the payment up: a CREATED one at once; a PROCESSING one when the instance that claimed
    -- it has had time to finish (or after the backoff of an unknown outcome); a refund likewise.
    next_attempt_at  timestamptz not null default now(),
    created_at       timestamptz not null default now(),
    -- When the status last changed (a claim's lease or a backoff does not count).
    updated_at       timestamptz not null default now(),
    constraint payments_amount_known check (amount_cents is not null or status = 'FAILED'),
    constraint payments_charged_have_charge_id check (status not in ('SUCCEEDED', 'REFUNDED') or charge_id is not null),
    constraint payments_refunded_have_refund_id check (status <> 'REFUNDED' or refund_id is not null),
    constraint payments_failed_have_reason check (status <> 'FAILED' or failure_reason is not null)
);

-- The worker's claim walks this index: the payments with work left, by when it is due.
create index payments_due on payments (next_attempt_at)
    where status in ('CREATED', 'PROCESSING') or (status = 'SUCCEEDED' and cancel_requested);
