-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "groupKey" TEXT;
