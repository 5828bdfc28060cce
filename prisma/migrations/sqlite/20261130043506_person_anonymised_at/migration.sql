-- AlterTable
ALTER TABLE "Candidate" ADD COLUMN "anonymisedAt" DATETIME;

-- AlterTable
ALTER TABLE "Student" ADD COLUMN "anonymisedAt" DATETIME;
