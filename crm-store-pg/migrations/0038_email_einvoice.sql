-- 0038: an invoice's or a credit note's email may carry its e-invoice beside (or, for
-- Factur-X, instead of) its PDF (issue 50, API.md §19: `crm serve --mail-attach-einvoice
-- FORMAT`).
--
-- email_bodies.einvoice             the e-invoice's bytes (XML, or the Factur-X PDF), made
--                                   when the message is composed, from the document as
--                                   issued; NULL: the email carries none
-- email_bodies.einvoice_name        its file name (the document's number and the format)
-- email_bodies.einvoice_media_type  `application/xml` or `application/pdf`
--
-- The three are set together or not at all. The message's version (its digest) already
-- covers the presentation, which now names the format: a change of format composes anew.

ALTER TABLE email_bodies
    ADD COLUMN einvoice BYTEA,
    ADD COLUMN einvoice_name TEXT,
    ADD COLUMN einvoice_media_type TEXT,
    ADD CONSTRAINT email_bodies_einvoice_whole CHECK (
        (einvoice IS NULL) = (einvoice_name IS NULL)
        AND (einvoice IS NULL) = (einvoice_media_type IS NULL)
    );
