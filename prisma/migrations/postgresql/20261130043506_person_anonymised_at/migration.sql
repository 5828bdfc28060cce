-- AlterTable
ALTER TABLE "Candidate" ADD COLUMN     "anonymisedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Student" ADD COLUMN     "anonymisedAt" TIMESTAMP(3);
