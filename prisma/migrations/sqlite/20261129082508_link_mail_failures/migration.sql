-- AlterTable
ALTER TABLE "Submission" ADD COLUMN "mailError" TEXT;
ALTER TABLE "Submission" ADD COLUMN "mailFailedAt" DATETIME;
