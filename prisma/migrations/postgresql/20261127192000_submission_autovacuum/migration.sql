-- Autovacuum of "Submission" after a fixed share of a thousandth-scale table, not a fifth of it
-- (docs/decisions/0038-submission-autovacuum.md). Results are appended and completed, rarely
-- deleted: with PostgreSQL's defaults a table of a million results is vacuumed after 200,000 new
-- rows or dead versions, and until then the newest results, the ones every list starts from, sit
-- on heap pages not marked all-visible, so the reports list's index-only scans fetch each of them
-- from the heap (a deep page: 6,659 heap fetches of 10,000 entries, 20.9 ms against 6.3 ms).
-- Storage parameters only: nothing is rewritten, and Prisma's schema does not describe them.
ALTER TABLE "Submission" SET (
  autovacuum_vacuum_scale_factor = 0.005,
  autovacuum_vacuum_insert_scale_factor = 0.005,
  autovacuum_analyze_scale_factor = 0.02
);
