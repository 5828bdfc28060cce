-- The scope's indexes gain the list's tie-break (id) after completedAt, so that a page deep in
-- the list is found by walking the index alone (see prisma/schema.prisma).

-- DropIndex
DROP INDEX "Submission_assignedById_isCompleted_completedAt_deletedAt_idx";

-- DropIndex
DROP INDEX "Submission_organizationId_isCompleted_completedAt_deletedAt_idx";

-- CreateIndex
CREATE INDEX "Submission_organization_completed_page_idx" ON "Submission"("organizationId", "isCompleted", "completedAt", "id", "deletedAt");

-- CreateIndex
CREATE INDEX "Submission_assigner_completed_page_idx" ON "Submission"("assignedById", "isCompleted", "completedAt", "id", "deletedAt");
