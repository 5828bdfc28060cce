-- The retention policy and the privacy notice (docs/api-contract.md §21, ADR 89): the organization's
-- settings, and when the policy anonymised a result (a person's anonymisedAt came with the erasure,
-- ADR 88). Columns added in place (no table rebuild), so the Submission triggers stay.
-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "privacyNotice" JSONB,
ADD COLUMN     "retentionAction" TEXT,
ADD COLUMN     "retentionInactivePeopleMonths" INTEGER,
ADD COLUMN     "retentionResultsMonths" INTEGER;

-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "anonymisedAt" TIMESTAMP(3);
