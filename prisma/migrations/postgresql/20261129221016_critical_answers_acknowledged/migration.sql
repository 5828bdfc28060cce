-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "acknowledgedAt" TIMESTAMP(3),
ADD COLUMN     "acknowledgedById" TEXT,
ADD COLUMN     "acknowledgementNote" TEXT,
ADD COLUMN     "criticalMessage" TEXT;

-- CreateIndex
CREATE INDEX "Submission_organization_flagged_idx" ON "Submission"("organizationId", "flaggedAt");

-- CreateIndex
CREATE INDEX "Submission_assigner_flagged_idx" ON "Submission"("assignedById", "flaggedAt");

-- AddForeignKey
ALTER TABLE "Submission" ADD CONSTRAINT "Submission_acknowledgedById_fkey" FOREIGN KEY ("acknowledgedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
