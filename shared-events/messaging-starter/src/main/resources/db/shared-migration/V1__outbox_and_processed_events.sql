-- Shared by every service (shared-events ships it; each service's own migrations start at V2).

-- Events waiting to leave (and, for a while, events that left). The row id is the event id and the
-- AMQP message_id. A row is written in the same transaction as the business change that caused it.
create table outbox_events (
    id              uuid primary key,
    aggregate_type  text        not null,
    aggregate_id    text        not null,
    event_type      text        not null,
    exchange        text        not null,
    payload         jsonb       not null,
    traceparent     text,
    created_at      timestamptz not null default now(),
    sent_at         timestamptz,
    attempts        integer     not null default 0,
    next_attempt_at timestamptz not null default now(),
    parked_at       timestamptz,
    last_error      text,
    -- Commit-independent write order: events of one aggregate are published in this order.
    seq             bigint generated always as identity
);

-- The relay claims unsent rows in seq order and stops at its batch size: walking this index finds a
-- batch without sorting the whole backlog (next_attempt_at is checked on the rows it walks).
create index outbox_events_unsent_seq on outbox_events (seq) where sent_at is null and parked_at is null;
-- "Is an earlier event of this aggregate still unsent?", asked for every claimed row.
create index outbox_events_aggregate_unsent on outbox_events (aggregate_type, aggregate_id, seq) where sent_at is null;
create index outbox_events_sent_at on outbox_events (sent_at) where sent_at is not null;

-- Events this service has already applied. The insert shares the transaction of the effect, so a
-- redelivered event finds its row and is acknowledged without a second effect.
create table processed_events (
    event_id     uuid primary key,
    event_type   text        not null,
    processed_at timestamptz not null default now()
);

create index processed_events_processed_at on processed_events (processed_at);
