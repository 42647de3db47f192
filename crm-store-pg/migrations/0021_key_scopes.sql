-- 0021: keys that can do only what they are for (API.md §15, issue 38).
--
--   scopes        what the key may do, as `crm keys create --scope` wrote it: `read`
--                 (every GET), `write` (everything), `<area>:read`, `<area>:write`.
--                 One at least; the service stores them without one implied by another.
--                 Every key made before this migration could do everything, so existing
--                 rows (and a row inserted without scopes) get `{write}`: nothing that
--                 worked before stops working. The check is on the shape only; which
--                 areas exist is the service's knowledge (crm_core::scope::Area), and a
--                 scope it does not know grants nothing.
--   expires_at    from when the key no longer works (401); NULL: it never expires. The
--                 service decides it against its own clock on every request, from its key
--                 cache, so an expiry takes effect at its instant, without a lookup.
--   last_used_at  the minute the key was last used (seconds always 0), or NULL for never.
--                 Written in batches by `crm serve` (at most once a minute per key, all
--                 keys in one statement), never once per request; it may trail by the
--                 batch interval, and a process that is killed loses its last batch.
ALTER TABLE api_keys
    ADD COLUMN scopes       TEXT[] NOT NULL DEFAULT '{write}',
    ADD COLUMN expires_at   TIMESTAMPTZ,
    ADD COLUMN last_used_at TIMESTAMPTZ,
    ADD CONSTRAINT api_keys_scopes_shape CHECK (
        cardinality(scopes) BETWEEN 1 AND 64
        AND array_position(scopes, NULL) IS NULL
        AND array_to_string(scopes, ',') ~ '^([a-z]+:)?(read|write)(,([a-z]+:)?(read|write))*$'
    );
