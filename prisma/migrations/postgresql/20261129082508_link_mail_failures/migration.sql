-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "mailError" TEXT,
ADD COLUMN     "mailFailedAt" TIMESTAMP(3);
