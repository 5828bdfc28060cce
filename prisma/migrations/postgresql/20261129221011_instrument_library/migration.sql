-- The instrument a form was installed from (docs/api-contract.md §17, ADR 72).
ALTER TABLE "Form" ADD COLUMN "instrument" JSONB;
