-- Critical answers (docs/api-contract.md §16, ADR 71): the message captured for the respondent,
-- the acknowledgement, and the indexes of flagged results. Written by hand as ALTER TABLE rather
-- than the engine's table rebuild: a rebuild drops the Submission triggers of ADR 11, 13, 32 and
-- 36 (search index, version, tallies, counts), and columns added at the end need none. SQLite takes
-- a REFERENCES clause on an added column whose default is NULL.
ALTER TABLE "Submission" ADD COLUMN "criticalMessage" TEXT;
ALTER TABLE "Submission" ADD COLUMN "acknowledgedAt" DATETIME;
ALTER TABLE "Submission" ADD COLUMN "acknowledgedById" TEXT REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "Submission" ADD COLUMN "acknowledgementNote" TEXT;

CREATE INDEX "Submission_organization_flagged_idx" ON "Submission"("organizationId", "flaggedAt");
CREATE INDEX "Submission_assigner_flagged_idx" ON "Submission"("assignedById", "flaggedAt");
