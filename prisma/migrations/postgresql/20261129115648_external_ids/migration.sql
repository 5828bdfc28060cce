-- AlterTable
ALTER TABLE "Candidate" ADD COLUMN     "externalId" TEXT;

-- AlterTable
ALTER TABLE "Student" ADD COLUMN     "externalId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Candidate_organizationId_externalId_key" ON "Candidate"("organizationId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "Student_organizationId_externalId_key" ON "Student"("organizationId", "externalId");
