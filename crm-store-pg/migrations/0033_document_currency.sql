-- 0033: every estimate and invoice has a currency, with the currency's own minor units
-- (API.md §18, issue 49 item 1): `JPY` has 0 decimals, `EUR` 2, `KWD` 3.
--
-- Amounts were NUMERIC(15,2). They become NUMERIC(16,3): 3 decimals for the currencies
-- that have them, and still 13 digits before the point. crm-core computes and validates
-- every amount to its document currency's decimals, so a 2-decimal currency's amounts
-- keep a 0 in the third place. The list indexes on amounts are rebuilt by the rewrite.
ALTER TABLE estimates
    ALTER COLUMN discount_amount TYPE NUMERIC(16,3),
    ALTER COLUMN subtotal TYPE NUMERIC(16,3),
    ALTER COLUMN subtotal_before_discount TYPE NUMERIC(16,3),
    ALTER COLUMN amount_before_tax TYPE NUMERIC(16,3),
    ALTER COLUMN tax_total_amount TYPE NUMERIC(16,3),
    ALTER COLUMN adjustment_amount TYPE NUMERIC(16,3),
    ALTER COLUMN final_amount TYPE NUMERIC(16,3);
ALTER TABLE invoices
    ALTER COLUMN discount_amount TYPE NUMERIC(16,3),
    ALTER COLUMN subtotal TYPE NUMERIC(16,3),
    ALTER COLUMN subtotal_before_discount TYPE NUMERIC(16,3),
    ALTER COLUMN amount_before_tax TYPE NUMERIC(16,3),
    ALTER COLUMN tax_total_amount TYPE NUMERIC(16,3),
    ALTER COLUMN adjustment_amount TYPE NUMERIC(16,3),
    ALTER COLUMN final_amount TYPE NUMERIC(16,3);
-- A line's `discount_value` holds a fixed amount (the currency's decimals) or a
-- percentage (2 decimals).
ALTER TABLE estimate_lines
    ALTER COLUMN total TYPE NUMERIC(16,3),
    ALTER COLUMN discount_value TYPE NUMERIC(16,3),
    ALTER COLUMN discount_amount TYPE NUMERIC(16,3);
ALTER TABLE invoice_lines
    ALTER COLUMN total TYPE NUMERIC(16,3),
    ALTER COLUMN discount_value TYPE NUMERIC(16,3),
    ALTER COLUMN discount_amount TYPE NUMERIC(16,3);
-- A payment is in its invoice's currency (read through the invoice, never stored twice).
ALTER TABLE payments
    ALTER COLUMN amount TYPE NUMERIC(16,3);

-- `currency`: the document's ISO 4217 code (crm-core checks it is one a document may
-- have). `exchange_rate`: how many units of `exchange_currency` (the company's currency
-- when the rate was set) one unit of `currency` is worth, given by the caller; both or
-- neither.
--
-- Existing rows take the company's currency when it set one that a document may have,
-- else EUR (the only figures so far were computed to cents; a draft's next write
-- recomputes them to its currency's minor unit). That default holds for the duration of
-- this migration; then it is EUR, for rows made outside the bill path (a contract's
-- backing document estimate): the store names the currency of every estimate and invoice
-- it creates.
DO $$
DECLARE
    existing TEXT := COALESCE(
        (SELECT currency FROM company
          WHERE currency NOT IN ('CLF', 'XAG', 'XAU', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR',
                                 'XPD', 'XPT', 'XSU', 'XTS', 'XUA', 'XXX')),
        'EUR');
BEGIN
    EXECUTE format('ALTER TABLE estimates ADD COLUMN currency TEXT NOT NULL DEFAULT %L '
                   'CHECK (currency ~ ''^[A-Z]{3}$'')', existing);
    EXECUTE format('ALTER TABLE invoices ADD COLUMN currency TEXT NOT NULL DEFAULT %L '
                   'CHECK (currency ~ ''^[A-Z]{3}$'')', existing);
END
$$;
ALTER TABLE estimates ALTER COLUMN currency SET DEFAULT 'EUR';
ALTER TABLE invoices ALTER COLUMN currency SET DEFAULT 'EUR';

ALTER TABLE estimates
    ADD COLUMN exchange_rate NUMERIC(15,6) CHECK (exchange_rate > 0),
    ADD COLUMN exchange_currency TEXT CHECK (exchange_currency ~ '^[A-Z]{3}$'),
    ADD CONSTRAINT estimates_exchange_whole
        CHECK ((exchange_rate IS NULL) = (exchange_currency IS NULL));
ALTER TABLE invoices
    ADD COLUMN exchange_rate NUMERIC(15,6) CHECK (exchange_rate > 0),
    ADD COLUMN exchange_currency TEXT CHECK (exchange_currency ~ '^[A-Z]{3}$'),
    ADD CONSTRAINT invoices_exchange_whole
        CHECK ((exchange_rate IS NULL) = (exchange_currency IS NULL));

-- What a client agrees to includes the currency and the exchange rate. The digest of an
-- offer (0031) now names them; the stored digests are brought to the new form, so that no
-- published estimate looks revised by this migration (a page loaded before it sends the
-- old form and is asked to review the estimate again).
CREATE OR REPLACE FUNCTION estimate_agreed_digest(estimate BIGINT) RETURNS TEXT
LANGUAGE sql STABLE AS $$
SELECT encode(sha256(convert_to(json_build_array(
    e.client_id, e.date, e.expiry_date, e.tax_type, e.discount_type,
    e.discount_percentage::text, e.discount_amount::text, e.adjustment_description,
    e.adjustment_amount::text, e.final_amount::text, e.notes, e.terms,
    (SELECT json_agg(json_build_array(l.description, l.long_description, l.unit,
        l.quantity::text, l.rate::text, l.discount_type, l.discount_value::text,
        l.tax_rate_id, l.total::text) ORDER BY l.position)
       FROM estimate_lines l WHERE l.estimate_id = e.id),
    (SELECT json_agg(json_build_array(t.name, t.rate::text, t.tax_rate_id,
        (SELECT l.position FROM estimate_lines l WHERE l.id = t.line_id)) ORDER BY t.id)
       FROM estimate_taxes t WHERE t.estimate_id = e.id),
    e.currency, e.exchange_rate::text, e.exchange_currency
)::text, 'UTF8')), 'hex')
FROM estimates e WHERE e.id = estimate
$$;

UPDATE estimates SET agreed_digest = estimate_agreed_digest(id)
 WHERE agreed_digest IS NOT NULL;
