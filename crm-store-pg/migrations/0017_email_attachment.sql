-- 0017: an email may carry the record's PDF (`crm serve --mail-attach-pdf`, API.md §12).
--
-- attachment  the PDF, rendered when the email is queued, from the record as it is then
--             (like the message's text), so every delivery attempt sends the same bytes;
--             NULL for an email without one. Named `<kind>-<number>.pdf` when sent.
ALTER TABLE email_queue ADD COLUMN attachment BYTEA;
