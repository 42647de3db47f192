-- The outbox (API.md §10): each email_queue row carries the rendered message, written in the
-- same transaction as the action that queues it, and the delivery worker's bookkeeping.
--
-- recipient and subject exist since 0003. message_id is fixed when the row is created, so
-- every delivery attempt of a row (at-least-once) carries the same Message-ID.
-- next_attempt_at is when a pending row is due (the worker sets it NULL once the row is sent
-- or failed; only a pending row's value means anything).

ALTER TABLE email_queue
    ADD COLUMN body_text       TEXT NOT NULL DEFAULT '',
    ADD COLUMN body_html       TEXT NOT NULL DEFAULT '',
    ADD COLUMN message_id      TEXT NOT NULL DEFAULT ('<' || gen_random_uuid()::text || '@crm.localhost>'),
    ADD COLUMN attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    ADD COLUMN next_attempt_at TIMESTAMPTZ DEFAULT now(),
    ADD COLUMN last_error      TEXT;

-- Rows queued before this migration hold no rendered message: nothing can be sent for them.
UPDATE email_queue
   SET status = 'failed', next_attempt_at = NULL,
       last_error = 'queued before messages were rendered into the outbox; not sent'
 WHERE status = 'pending';
UPDATE email_queue SET next_attempt_at = NULL WHERE status <> 'pending';

ALTER TABLE email_queue ADD CONSTRAINT email_queue_message_id_key UNIQUE (message_id);

-- Claiming: the due pending rows, oldest due first.
DROP INDEX email_queue_pending_idx;
CREATE INDEX email_queue_due_idx ON email_queue (next_attempt_at, id) WHERE status = 'pending';
-- The list's filters and sorts.
CREATE INDEX email_queue_resource_idx ON email_queue (resource_type, resource_id);
CREATE INDEX email_queue_status_idx ON email_queue (status, id);
CREATE INDEX email_queue_created_idx ON email_queue (created_at, id);
CREATE INDEX email_queue_sent_idx ON email_queue (sent_at, id);
