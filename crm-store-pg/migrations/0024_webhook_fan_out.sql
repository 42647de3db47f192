-- 0024: a change writes one row, its event; the worker fans events out into deliveries
-- (issue 35, the event write's cost).
--
-- Until now the writing transaction inserted the event and, in the same statement, one
-- delivery per subscribed endpoint: two rows, nine index entries and two foreign-key checks
-- on every change. Measured with pgbench (a note insert and its event, pipelined, 16
-- clients), that left 0.61 of the note-only throughput; the event row alone leaves about
-- 0.90. So the change now inserts only its event (still in its own transaction, still only
-- when an enabled endpoint subscribes to its type), and the outbox worker turns events into
-- deliveries just before it claims (crm-store-pg/src/webhooks.rs, FAN_OUT_SQL).
--
-- An event not yet fanned out has no message id: the fan-out gives it one (the
-- `webhook-id`, the same for every endpoint and attempt) and queues its deliveries, in one
-- statement, under a transaction-level advisory lock, so that fan-outs run one at a time and
-- in event order. The events about one record are numbered in the order their changes
-- committed (each is inserted under the record's row lock, at the commit), so their
-- deliveries are numbered in that order too, which is the order the claim keeps.
--
-- Pruning is unchanged (delivered and failed deliveries after 30 days, then the events left
-- without one), except that old events are found by id, not by an index on their time, which
-- every write would pay for: ids follow time, so the upkeep walks the ids from the oldest
-- until the first event younger than 30 days.

ALTER TABLE webhook_events ALTER COLUMN message_id DROP DEFAULT,
    ALTER COLUMN message_id DROP NOT NULL;
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_message_id_key;
CREATE UNIQUE INDEX webhook_events_message_id ON webhook_events (message_id)
    WHERE message_id IS NOT NULL;
-- The events still to fan out, oldest first.
CREATE INDEX webhook_events_new ON webhook_events (id) WHERE message_id IS NULL;
DROP INDEX webhook_events_created;
