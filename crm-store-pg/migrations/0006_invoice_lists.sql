-- 0006: the invoice area (API.md §9). Invoices exist since 0003 (created by converting an
-- estimate); the API now lists, filters, sorts and searches them like estimates, so they
-- get the same indexes as estimates (0003): each filter and sort column with the id
-- tie-break, the shown-status filter (stored status and due date), and trigram indexes
-- for the notes and terms search.
DROP INDEX invoices_client_idx;
CREATE INDEX invoices_client_idx ON invoices (client_id, id);
CREATE INDEX invoices_project_idx ON invoices (project_id, id);
DROP INDEX invoices_category_idx;
CREATE INDEX invoices_category_idx ON invoices (category_id, id);
CREATE INDEX invoices_status_idx ON invoices (status_id, due_date);
CREATE INDEX invoices_date_idx ON invoices (date, id);
CREATE INDEX invoices_due_idx ON invoices (due_date, id);
CREATE INDEX invoices_final_amount_idx ON invoices (final_amount, id);
CREATE INDEX invoices_created_idx ON invoices (created_at, id);
CREATE INDEX invoices_notes_trgm_idx ON invoices USING gin (notes gin_trgm_ops);
CREATE INDEX invoices_terms_trgm_idx ON invoices USING gin (terms gin_trgm_ops);
-- Line items are read in order per invoice (the unique (invoice_id, position) serves);
-- tags by owner (tags_invoice_idx, 0004).
