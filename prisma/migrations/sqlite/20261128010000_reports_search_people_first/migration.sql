-- Nothing to do on SQLite: the PostgreSQL migration of the same name adds what its reports search
-- starts from, people's names (docs/decisions/0039-reports-search-people-first.md). SQLite's FTS5
-- trigram index does not grow with the table the way PostgreSQL's GIN lookup does (ADR 11). Kept so
-- that both databases have the same list of migrations.
SELECT 1;
