-- 0009: listed estimates by id (the default order) and by stored status in id order
-- (issue 12). Contracts' backing document estimates have the highest ids once contracts
-- are made in bulk, so the default order must not walk past them; a status filter in the
-- default order reads its own index instead of filtering every row.
CREATE INDEX estimates_listed_id_idx ON estimates (id) WHERE NOT is_document;
CREATE INDEX estimates_status_id_idx ON estimates (status, id) WHERE NOT is_document;
