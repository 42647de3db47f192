-- 0016: the client's side (API.md §12, issue 34): a link per estimate and invoice, and the
-- client's answer to an estimate.
--
-- The link lives on the bill's own row, so the record's one read statement shows it and a
-- deleted record takes its link with it (its page is then a 404 like any bad link).
--   client_token             64 lower-case hex digits: 32 random bytes drawn by the service.
--                            Kept as is (not a digest) because the record shows its link;
--                            NULL while the record has no link (never made, or revoked).
--                            Making a link again replaces the token: the old one stops at
--                            once, since nothing else remembers it.
--   client_token_expires_at  when the link stops working (--link-ttl days after it was made).
-- The unique indexes find a token's record; a token is looked up in both tables (estimates
-- first), each an index probe. Neither column is a counted key, so the list-count triggers
-- (0013) do not fire when a link changes.
ALTER TABLE estimates
    ADD COLUMN client_token            TEXT CHECK (client_token ~ '^[0-9a-f]{64}$'),
    ADD COLUMN client_token_expires_at TIMESTAMPTZ,
    -- The client's answer from the page: what was decided, the reason given with a decline
    -- (at most 1,000 characters, checked by the service), and when. Set together or not at
    -- all. A later status change by the company keeps it (it is what the client said).
    ADD COLUMN client_decision         TEXT CHECK (client_decision IN ('accepted', 'declined')),
    ADD COLUMN client_reason           TEXT,
    ADD COLUMN client_decided_at       TIMESTAMPTZ,
    ADD CONSTRAINT estimates_client_token_pair
        CHECK ((client_token IS NULL) = (client_token_expires_at IS NULL)),
    ADD CONSTRAINT estimates_client_decision_whole
        CHECK ((client_decision IS NULL) = (client_decided_at IS NULL)
               AND (client_reason IS NULL OR client_decision = 'declined'));
CREATE UNIQUE INDEX estimates_client_token_key ON estimates (client_token)
    WHERE client_token IS NOT NULL;

ALTER TABLE invoices
    ADD COLUMN client_token            TEXT CHECK (client_token ~ '^[0-9a-f]{64}$'),
    ADD COLUMN client_token_expires_at TIMESTAMPTZ,
    ADD CONSTRAINT invoices_client_token_pair
        CHECK ((client_token IS NULL) = (client_token_expires_at IS NULL));
CREATE UNIQUE INDEX invoices_client_token_key ON invoices (client_token)
    WHERE client_token IS NOT NULL;
