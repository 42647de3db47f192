-- 0026: fair delivery (issue 47): each endpoint's circuit breaker.
--
-- Nine endpoints that accepted connections and never answered held all 64 of a worker's
-- sending slots (8 each), so a healthy endpoint's events waited for their 15 s timeouts.
-- The worker now shares its slots between the endpoints that have work
-- (crm_core::webhook::fairness::plan), and an endpoint whose attempts keep timing out gets
-- one attempt at a time until one is delivered. The breaker's state is kept here, so that
-- every worker and instance applies it and the API shows it:
--
-- - breaker_timeouts: attempts in a row that got no answer in time (reset by a delivered
--   one; other failures leave it as it is), counted when the outcomes are recorded;
-- - breaker_opened_at: when the breaker opened (crm-core decides: at 3 in a row); NULL
--   while closed. It closes with the first delivered attempt.

ALTER TABLE webhook_endpoints
    ADD COLUMN breaker_timeouts INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN breaker_opened_at TIMESTAMPTZ;
