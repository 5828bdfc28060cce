-- The instrument a form was installed from (docs/api-contract.md §17, ADR 72): a column added at
-- the end by ALTER TABLE, so no table is rebuilt.
ALTER TABLE "Form" ADD COLUMN "instrument" JSONB;
