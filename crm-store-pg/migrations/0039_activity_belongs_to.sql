-- 0039 (issue 52): a record's activity lists the entries of the records that belong to it:
-- an invoice's, those of its payments and its credit notes (API.md §21).
--
-- activity.parent_type, parent_id  the record the entry's record belongs to, as its
--                                  record names it (a payment's `invoice_id`), set when the
--                                  entry is written; NULL for the others. Not part of a
--                                  chained entry's canonical form: it is read off the
--                                  entry's own fields, and a payment's creation and deletion
--                                  list `invoice_id` among their changes, which are.
--
-- Entries written before this migration are given theirs from those changes.

ALTER TABLE activity
    ADD COLUMN parent_type text,
    ADD COLUMN parent_id bigint,
    ADD CONSTRAINT activity_parent_whole CHECK ((parent_type IS NULL) = (parent_id IS NULL));

UPDATE activity a
   SET parent_type = 'invoice',
       parent_id = COALESCE(a.changes #>> '{invoice_id,1}', a.changes #>> '{invoice_id,0}')::bigint
 WHERE a.resource_type IN ('payment', 'credit_note')
   AND COALESCE(a.changes #>> '{invoice_id,1}', a.changes #>> '{invoice_id,0}') ~ '^[0-9]+$';

-- An invoice's activity: its own entries (activity_resource) or its payments' and credit
-- notes' (this one), newest first.
CREATE INDEX activity_parent ON activity (parent_type, parent_id, id) WHERE parent_id IS NOT NULL;
