-- Nothing to do on SQLite: the PostgreSQL migration of the same name sets autovacuum's thresholds
-- for "Submission" (docs/decisions/0038-submission-autovacuum.md). SQLite has no visibility map
-- and no autovacuum of dead rows; its index-only reads never visit the table. Kept so that both
-- databases have the same list of migrations.
SELECT 1;
