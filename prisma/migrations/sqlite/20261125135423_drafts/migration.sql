-- AlterTable
ALTER TABLE "Submission" ADD COLUMN "startedAt" DATETIME;

-- CreateTable
CREATE TABLE "SubmissionDraft" (
    "submissionId" TEXT NOT NULL PRIMARY KEY,
    "answers" JSONB NOT NULL,
    "savedAt" DATETIME NOT NULL,
    CONSTRAINT "SubmissionDraft_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "Submission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
