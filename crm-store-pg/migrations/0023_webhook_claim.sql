-- 0023: the webhook claim walks endpoints, not the whole backlog, and queuing a delivery
-- no longer notifies inside the writing transaction (issue 35).
--
-- The claim of 0022 ranked every due pending delivery and counted each endpoint's leases
-- once per candidate row, so its cost grew with the square of the backlog (a 5,000-delivery
-- drain did not finish in 7 minutes). It now takes, for each endpoint that has room under
-- its cap, that endpoint's oldest due deliveries (a LATERAL subquery with a LIMIT over the
-- index below), after counting the leases once per endpoint (the second index, which holds
-- only the deliveries in flight). A disabled endpoint's backlog is not read at all unless a
-- test message waits for it (the third index).

DROP INDEX webhook_deliveries_due;
-- An endpoint's due deliveries, oldest first.
CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries (endpoint_id, next_attempt, id)
    WHERE status = 'pending';
-- The deliveries taken by a worker (few: the ones in flight, and a dead worker's until
-- they are claimed again).
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id)
    WHERE status = 'pending' AND leased_until IS NOT NULL;
-- Test messages, which go out even to a disabled endpoint.
CREATE INDEX webhook_deliveries_test ON webhook_deliveries (endpoint_id)
    WHERE status = 'pending' AND event_type = 'webhook.test';

-- A NOTIFY inside a transaction serializes the commits of every notifying transaction
-- (PostgreSQL holds its lock until the commit is flushed): with one endpoint subscribed,
-- note creates lost about half of their throughput to it. The store now sends the
-- notification after the commit, folded across concurrent writes (crm-store-pg/src/wake.rs).
DROP TRIGGER webhook_deliveries_notify ON webhook_deliveries;
DROP FUNCTION webhook_deliveries_notify();
