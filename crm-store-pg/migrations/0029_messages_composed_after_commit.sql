-- 0029: messages are composed after the commit, by the store's caller (issue 46).
--
-- Until now the store rendered a bill's email (and with --mail-attach-pdf its PDF) inside
-- the publish or send-email transaction, with the bill's row locked, on an async worker;
-- the decision notice likewise. Now the transaction stores only the message's place:
--
-- email_bodies.template    what the message is: 'estimate', 'invoice' (a bill's email to
--                          its client) or 'estimate_decision' (the notice to the estimate's
--                          creator); rows from before are their resource's email.
-- email_bodies.subject, body_text, body_html   NULL until the message is composed (the
--                          caller composes it right after the commit, from the record the
--                          write returned; `crm serve`'s upkeep composes what a stopped
--                          process left). All three are set together.
-- email_queue.subject      NULL while the row's message is not composed; set with it.
--
-- The delivery workers claim only rows whose message is composed.

ALTER TABLE email_bodies
    ADD COLUMN template TEXT;
UPDATE email_bodies SET template = resource_type;
ALTER TABLE email_bodies
    ALTER COLUMN template SET NOT NULL,
    ADD CONSTRAINT email_bodies_template_check
        CHECK (template IN ('estimate', 'invoice', 'estimate_decision')),
    ALTER COLUMN subject DROP NOT NULL,
    ALTER COLUMN body_text DROP NOT NULL,
    ALTER COLUMN body_html DROP NOT NULL,
    ADD CONSTRAINT email_bodies_composed_check
        CHECK ((subject IS NULL) = (body_text IS NULL) AND (body_text IS NULL) = (body_html IS NULL));

ALTER TABLE email_queue
    ALTER COLUMN subject DROP NOT NULL;

-- Messages left uncomposed (the upkeep's look-up; normally empty).
CREATE INDEX email_bodies_uncomposed_idx ON email_bodies (id) WHERE body_text IS NULL;
