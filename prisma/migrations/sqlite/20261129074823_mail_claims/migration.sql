-- AlterTable
ALTER TABLE "Job" ADD COLUMN "submissionId" TEXT;

-- AlterTable
ALTER TABLE "Submission" ADD COLUMN "mailQueuedAt" DATETIME;

-- CreateIndex
CREATE INDEX "Job_submissionId_idx" ON "Job"("submissionId");
