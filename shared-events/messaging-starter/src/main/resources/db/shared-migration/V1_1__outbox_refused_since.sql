-- Shared migrations are numbered 1.x so that they sort before every service's own (V2 onwards); a shared
-- migration added later is applied to databases already past V2 because the starter sets Flyway's out-of-order.

-- Since when the broker has been refusing this row (nack, return) without an outage in between: the relay
-- parks a row on this time budget, not on a count of attempts (docs/operations.md, "Parked outbox rows").
alter table outbox_events add column refused_since timestamptz;
