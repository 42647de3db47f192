-- 0027: the settings every instance sharing this database must agree on (issue 47).
--
-- Instances that share a database share its records, its outbox and its webhooks, so a
-- setting that decides what the data means or what becomes of it must be the same in all of
-- them: an instance without --webhook-allow-http picked up the deliveries of one that had it
-- and failed them; two public URLs gave one record two links (and two ETags), two company
-- names or papers two PDFs of one version. `crm serve` (and `crm deliver`, for the webhook
-- policy it applies) compares its values with the ones stored here when it starts: a missing
-- setting is stored (the first instance on a database stores all of its own), a different
-- one stops the command with one line naming the flag and both values, unless it is started
-- with --take-over-settings, which stores its values instead. Settings that only shape one
-- process (its address, its pools, its limits, its mail transport) are not here.
--
-- name        the flag without its dashes (`webhook-allow-http`, `public-url`, …)
-- value       its value as the flag's parser gave it (`true`, `https://crm.example.com`)
-- updated_at  when an instance stored it

CREATE TABLE instance_settings (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
