-- 0032: the arithmetic of each estimate and invoice, chosen when it is created
-- (`--totals-policy`, API.md §18) and kept: a later change of the setting never changes
-- an existing document's figures. Every document so far was computed with the CRM's
-- own arithmetic (`crm`), the only one the service had.
ALTER TABLE estimates
    ADD COLUMN totals_policy TEXT NOT NULL DEFAULT 'crm' CHECK (totals_policy IN ('crm', 'exact'));
ALTER TABLE invoices
    ADD COLUMN totals_policy TEXT NOT NULL DEFAULT 'crm' CHECK (totals_policy IN ('crm', 'exact'));
