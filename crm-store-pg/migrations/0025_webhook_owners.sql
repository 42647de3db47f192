-- 0025: an endpoint belongs to an API key, and receives only what that key may read
-- (issue 47: a key scoped to `webhooks:write` alone registered a `*` endpoint and received
-- every record, another user's private notes included).
--
--   webhook_endpoints.key_id   the key that registered the endpoint, or last set its URL or
--                              its events, or enabled it. The fan-out (crm-store-pg/src/
--                              webhooks.rs) queues an event for it only when that key is
--                              valid then (not revoked, not expired, its user still an
--                              administrator) and its scopes allow reading every area the
--                              event carries (crm_core::webhook::EventType::needs); an
--                              endpoint whose key is no longer valid is disabled there, with
--                              the reason. A deleted key leaves NULL: nothing is delivered.
--   webhook_events.private_to  the only user who may see the event's record (a private note's
--                              creator), or NULL for everyone the scopes allow.
--
-- Endpoints registered before this migration have no key: they are disabled, with a reason
-- that says how to bring them back (enabling one makes it the enabling key's). Guessing an
-- owner would hand some key the data of every area.

ALTER TABLE webhook_endpoints
    ADD COLUMN key_id BIGINT REFERENCES api_keys (id) ON DELETE SET NULL;
CREATE INDEX webhook_endpoints_key ON webhook_endpoints (key_id);

UPDATE webhook_endpoints SET enabled = false, disabled_at = now(),
    disabled_reason = 'Registered before endpoints belonged to an API key: enable it again to make it the enabling key''s.'
    WHERE enabled;

ALTER TABLE webhook_events ADD COLUMN private_to BIGINT;
