-- The answers of POST requests sent with an Idempotency-Key (API.md section 11).
--
-- A row is written in the same transaction as the request's effect, so a crash can never
-- leave an effect without its answer or an answer without its effect. Rows are scoped to
-- the API key and live 24 hours: the service treats an older row as absent (and deletes
-- it when it meets it), and `crm serve` deletes expired rows periodically.
CREATE TABLE idempotency_keys (
    api_key_id      bigint      NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    idempotency_key text        NOT NULL,
    -- SHA-256 of the method, the route, the id and the parsed query and body.
    fingerprint     bytea       NOT NULL,
    status          smallint    NOT NULL,
    body            bytea       NOT NULL,
    etag            text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (api_key_id, idempotency_key)
);

-- The periodic sweep of expired rows.
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
