-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "startedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "SubmissionDraft" (
    "submissionId" TEXT NOT NULL,
    "answers" JSONB NOT NULL,
    "savedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SubmissionDraft_pkey" PRIMARY KEY ("submissionId")
);

-- AddForeignKey
ALTER TABLE "SubmissionDraft" ADD CONSTRAINT "SubmissionDraft_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission"("id") ON DELETE CASCADE ON UPDATE CASCADE;
