-- The third tax mode, `vat` (API.md §19, TOTALS.md "VAT mode"): EN 16931's arithmetic, a
-- rate and a discount per line like `inline`, and a document discount like `summary`.
-- Every CHECK on `tax_type` of estimates, invoices and credit notes is replaced by one
-- that admits `vat`; the one that kept discounts to summary mode admits VAT mode too.
DO $$
DECLARE
    c record;
BEGIN
    FOR c IN
        SELECT conrelid::regclass AS tab, conname
        FROM pg_constraint
        WHERE contype = 'c'
          AND conrelid IN ('estimates'::regclass, 'invoices'::regclass, 'credit_notes'::regclass)
          AND pg_get_constraintdef(oid) LIKE '%tax_type%'
    LOOP
        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', c.tab, c.conname);
    END LOOP;
END
$$;

ALTER TABLE estimates
    ADD CONSTRAINT estimates_tax_type_check CHECK (tax_type IN ('summary', 'inline', 'vat')),
    ADD CONSTRAINT estimates_discount_mode_check CHECK (tax_type <> 'inline' OR discount_type = 'none');
ALTER TABLE invoices
    ADD CONSTRAINT invoices_tax_type_check CHECK (tax_type IN ('summary', 'inline', 'vat')),
    ADD CONSTRAINT invoices_discount_mode_check CHECK (tax_type <> 'inline' OR discount_type = 'none');
ALTER TABLE credit_notes
    ADD CONSTRAINT credit_notes_tax_type_check CHECK (tax_type IN ('summary', 'inline', 'vat'));
