-- 0030: the company, its clients, tax rates, projects and people as areas of the API
-- (API.md §17, issue 48). Until now these rows came only from `crm seed`.

-- The company: the seller on every document. One row (id 1), made here and only ever
-- updated; a column that is NULL was never set (the API shows its default: the trading
-- name falls back to `--company-name`, the currency to EUR, the time zone to the
-- server's). Codes are checked by crm-core (country ISO 3166-1 alpha-2, currency
-- ISO 4217, VAT id with its country prefix, IBAN by its mod-97 digits); the shapes are
-- checked here too.
CREATE TABLE company (
    id                 SMALLINT PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    legal_name         TEXT,
    trading_name       TEXT,
    address_line1      TEXT,
    address_line2      TEXT,
    address_city       TEXT,
    address_postcode   TEXT,
    address_region     TEXT,
    address_country    TEXT CHECK (address_country ~ '^[0-9A-Z]{2}$'),
    vat_id             TEXT,
    -- Another registration (a German Steuernummer).
    tax_id             TEXT,
    -- The commercial register and number.
    registration       TEXT,
    -- The seller's contact point (EN 16931 BT-41).
    contact_name       TEXT,
    email              TEXT,
    phone              TEXT,
    website            TEXT,
    bank_iban          TEXT CHECK (bank_iban ~ '^[A-Z]{2}[0-9]{2}[0-9A-Z]{11,30}$'),
    bank_bic           TEXT,
    bank_account_name  TEXT,
    -- The Peppol endpoint: an ISO 6523 scheme code and the id within it.
    peppol_scheme      TEXT CHECK (peppol_scheme ~ '^[0-9]{4}$'),
    peppol_id          TEXT,
    currency           TEXT CHECK (currency ~ '^[A-Z]{3}$'),
    timezone           TEXT,
    payment_terms      TEXT,
    updated_at         TIMESTAMPTZ NOT NULL DEFAULT now()
);
INSERT INTO company (id) VALUES (1);

-- Clients: the buyer's identity beside its name and contact email (migration 0001).
-- `currency` NULL: the company's. `creator_id` was there already.
ALTER TABLE clients
    ADD COLUMN contact_name      TEXT,
    ADD COLUMN address_line1     TEXT,
    ADD COLUMN address_line2     TEXT,
    ADD COLUMN address_city      TEXT,
    ADD COLUMN address_postcode  TEXT,
    ADD COLUMN address_region    TEXT,
    ADD COLUMN address_country   TEXT CHECK (address_country ~ '^[0-9A-Z]{2}$'),
    ADD COLUMN vat_id            TEXT,
    ADD COLUMN peppol_scheme     TEXT CHECK (peppol_scheme ~ '^[0-9]{4}$'),
    ADD COLUMN peppol_id         TEXT,
    -- EN 16931 BT-10 (a Leitweg-ID for German public buyers).
    ADD COLUMN buyer_reference   TEXT,
    ADD COLUMN currency          TEXT CHECK (currency ~ '^[A-Z]{3}$');
-- The list's filters and sorts (search is counted row by row, as the list is).
CREATE INDEX clients_status_idx ON clients (status, id);
CREATE INDEX clients_country_idx ON clients (address_country, id);
CREATE INDEX clients_lower_name_idx ON clients (lower(company_name), id);
CREATE INDEX clients_created_idx ON clients (created_at, id);

-- Tax rates: the EN 16931 VAT category (UNTDID 5305 as the standard restricts it) and,
-- for the exempt categories, the reason as text (BT-120) and as a VATEX code (BT-121).
-- A rate a document uses keeps its rate and category (the service refuses the change
-- under the rate's row lock; documents take the row's key-share lock with their foreign
-- key, so the check and a first use do not cross). Existing rates are S, or Z at 0.00.
ALTER TABLE tax_rates
    ADD COLUMN vat_category      TEXT NOT NULL DEFAULT 'S'
        CHECK (vat_category IN ('S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M')),
    ADD COLUMN exemption_reason  TEXT,
    ADD COLUMN exemption_code    TEXT,
    ADD COLUMN creator_id        BIGINT REFERENCES users (id) ON DELETE SET NULL,
    ADD COLUMN updated_at        TIMESTAMPTZ NOT NULL DEFAULT now();
UPDATE tax_rates SET vat_category = 'Z' WHERE rate = 0;
UPDATE tax_rates SET updated_at = created_at;
CREATE INDEX tax_rates_lower_name_idx ON tax_rates (lower(name), id);

-- Projects: when they start and are due.
ALTER TABLE projects
    ADD COLUMN start_date  DATE,
    ADD COLUMN due_date    DATE,
    ADD CONSTRAINT projects_due_after_start CHECK (due_date >= start_date);
CREATE INDEX projects_status_idx ON projects (status, id);
CREATE INDEX projects_lower_title_idx ON projects (lower(title), id);

-- Scopes name areas with a hyphen now (`tax-rates:read`): the shape check of 0021 allows it.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_shape;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_shape CHECK (
    cardinality(scopes) BETWEEN 1 AND 64
    AND array_position(scopes, NULL) IS NULL
    AND array_to_string(scopes, ',') ~ '^([a-z-]+:)?(read|write)(,([a-z-]+:)?(read|write))*$'
);
