-- AlterTable
ALTER TABLE "Job" ADD COLUMN "concurrencyKey" TEXT;
