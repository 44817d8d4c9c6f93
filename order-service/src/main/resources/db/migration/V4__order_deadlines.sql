-- Order deadlines (docs/architecture.md, "Deadlines"): an order still CREATED after orders.deadline is
-- rejected, and the steps that had not answered become TIMED_OUT.
alter table orders drop constraint orders_steps_known;
alter table orders add constraint orders_steps_known check (
    inventory_step in ('PENDING', 'OK', 'REJECTED', 'NOT_NEEDED', 'COMPENSATED', 'TIMED_OUT')
    and coupon_step in ('PENDING', 'OK', 'REJECTED', 'NOT_NEEDED', 'COMPENSATED', 'TIMED_OUT')
    and risk_step in ('PENDING', 'OK', 'REJECTED', 'NOT_NEEDED', 'COMPENSATED', 'TIMED_OUT'));

-- The orders still waiting, oldest first: what every instance's deadline sweep claims every few seconds,
-- the oldest-pending-age gauge and the operators' query for CREATED orders. Partial, so it holds only the
-- few orders in flight, not every order ever placed: an order leaves it when it becomes final.
create index orders_created_pending on orders (created_at) where status = 'CREATED';

comment on column order_history.event_id is
    'The event that made this entry: the reply applied or ignored; for OrderCreated and for Deadline (the '
    'order''s deadline passed, which is no event of its own) the event order-service emitted: the OrderCreated, '
    'or the OrderCancelled the deadline caused.';
