-- The payment step (PaymentRequested once inventory, coupon and risk said yes; PaymentSucceeded confirms) and the
-- customer's cancellation. Orders that were final before payment existed were confirmed without one: NOT_NEEDED.
alter table orders add column payment_step text not null default 'PENDING';
update orders set payment_step = 'NOT_NEEDED' where status <> 'CREATED';

alter table orders drop constraint orders_status_check;
alter table orders add constraint orders_status_check
    check (status in ('CREATED', 'CONFIRMED', 'REJECTED', 'CANCELLED'));

alter table orders drop constraint orders_steps_known;
alter table orders add constraint orders_steps_known check (
    inventory_step in ('PENDING', 'OK', 'REJECTED', 'NOT_NEEDED', 'COMPENSATED', 'TIMED_OUT')
    and coupon_step in ('PENDING', 'OK', 'REJECTED', 'NOT_NEEDED', 'COMPENSATED', 'TIMED_OUT')
    and risk_step in ('PENDING', 'OK', 'REJECTED', 'NOT_NEEDED', 'COMPENSATED', 'TIMED_OUT')
    and payment_step in ('PENDING', 'OK', 'REJECTED', 'NOT_NEEDED', 'TIMED_OUT', 'REFUNDED'));

-- Null in the rows written before the step existed.
alter table order_history add column payment_step text;
