-- Scales and flags (docs/api-contract.md §15, §16). Written by hand as ALTER TABLE rather than the
-- engine's table rebuilds: adding columns at the end needs none, and a rebuild of "Form" or
-- "Question" would copy every form's content for nothing. The subscales' default is quoted by
-- hand: the schema engine writes DEFAULT [], which SQLite reads as an identifier.
ALTER TABLE "Form" ADD COLUMN "scoring" JSONB;
ALTER TABLE "Form" ADD COLUMN "subscales" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "Form" ADD COLUMN "criticalMessage" TEXT;

ALTER TABLE "Question" ADD COLUMN "key" TEXT;
ALTER TABLE "Question" ADD COLUMN "reverseScored" BOOLEAN NOT NULL DEFAULT false;
CREATE UNIQUE INDEX "Question_formId_key_key" ON "Question"("formId", "key");

ALTER TABLE "Option" ADD COLUMN "critical" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "ScoreRange" ADD COLUMN "critical" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "Submission" ADD COLUMN "subscales" JSONB;
ALTER TABLE "Submission" ADD COLUMN "flags" JSONB;
ALTER TABLE "Submission" ADD COLUMN "flaggedAt" DATETIME;
