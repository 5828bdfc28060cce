-- Shuffling (docs/api-contract.md §22, ADR 91).
ALTER TABLE "Form" ADD COLUMN "shuffleQuestions" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "shuffleOptions" BOOLEAN NOT NULL DEFAULT false;
