-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "submissionId" TEXT;

-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "mailQueuedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Job_submissionId_idx" ON "Job"("submissionId");
