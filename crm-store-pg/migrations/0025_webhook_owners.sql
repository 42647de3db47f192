-- 0025: a placeholder on the fair-delivery branch (issue 47, item 2) for the migration of the
-- same name on the branch that gives webhook endpoints their owners (issue 47, item 1),
-- which this branch does not have: migrations are numbered without a gap, and this
-- branch's own is 0026. At the merge, the other branch's file replaces this one.
SELECT 1;
