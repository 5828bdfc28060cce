-- Shuffling (docs/api-contract.md §22, ADR 91): two flags added at the end by ALTER TABLE, so no
-- table is rebuilt.
ALTER TABLE "Form" ADD COLUMN "shuffleQuestions" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Form" ADD COLUMN "shuffleOptions" BOOLEAN NOT NULL DEFAULT false;
