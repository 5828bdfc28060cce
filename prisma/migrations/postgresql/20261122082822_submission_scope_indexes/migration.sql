-- The scope indexes end with "deletedAt": every list and count filters "deletedAt" IS NULL, which the
-- index now answers without reading the rows. It comes after "completedAt" because PostgreSQL keeps
-- the index order of "completedAt" only after equality conditions (docs/decisions/0011-substring-search.md).

-- DropIndex
DROP INDEX "Submission_assignedById_isCompleted_completedAt_idx";

-- DropIndex
DROP INDEX "Submission_organizationId_isCompleted_completedAt_idx";

-- CreateIndex
CREATE INDEX "Submission_organizationId_isCompleted_completedAt_deletedAt_idx" ON "Submission"("organizationId", "isCompleted", "completedAt", "deletedAt");

-- CreateIndex
CREATE INDEX "Submission_assignedById_isCompleted_completedAt_deletedAt_idx" ON "Submission"("assignedById", "isCompleted", "completedAt", "deletedAt");
