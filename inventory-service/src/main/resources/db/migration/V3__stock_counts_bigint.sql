-- A release adds the order's units back to available, whatever happened to the sku since it reserved them: an
-- operator may have set available to the API's bound (1,000,000,000) while units were reserved, and again after
-- more were reserved, so the sum has no bound of its own. In integer columns it could pass 2,147,483,647, and
-- the release would then fail on every attempt: a compensation that became poison. In bigint no count that can
-- happen overflows. For the same reason there is no upper check on available here: the API refuses a value
-- above its bound (400), but a release must never be refused.
alter table stock
    alter column available type bigint,
    alter column reserved type bigint;
