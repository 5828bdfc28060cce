-- An organization is a school or a clinic (docs/api-contract.md §18, ADR 81). Written by hand as
-- ALTER TABLE rather than the engine's rebuild of a table every other table refers to.
ALTER TABLE "Organization" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'SCHOOL';
