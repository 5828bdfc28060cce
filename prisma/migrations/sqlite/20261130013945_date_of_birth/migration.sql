-- A person's date of birth, a calendar day as text (docs/api-contract.md §18).
-- AlterTable
ALTER TABLE "Candidate" ADD COLUMN "dateOfBirth" TEXT;

-- AlterTable
ALTER TABLE "Student" ADD COLUMN "dateOfBirth" TEXT;
