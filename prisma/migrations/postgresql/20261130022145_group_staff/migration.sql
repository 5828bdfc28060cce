-- CreateEnum
CREATE TYPE "GroupStaffRole" AS ENUM ('OWNER', 'EDITOR', 'VIEWER');

-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "groupId" TEXT;

-- CreateTable
CREATE TABLE "GroupStaff" (
    "id" TEXT NOT NULL,
    "groupId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "GroupStaffRole" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GroupStaff_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "GroupStaff_userId_idx" ON "GroupStaff"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "GroupStaff_groupId_userId_key" ON "GroupStaff"("groupId", "userId");

-- CreateIndex
CREATE INDEX "Submission_groupId_idx" ON "Submission"("groupId");

-- AddForeignKey
ALTER TABLE "GroupStaff" ADD CONSTRAINT "GroupStaff_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Group"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GroupStaff" ADD CONSTRAINT "GroupStaff_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Submission" ADD CONSTRAINT "Submission_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Group"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Each existing group's creator, while still a user, becomes its first owner (docs/api-contract.md
-- §19, ADR 86). Links given to a group before this have no record of it and stay their assigner's.
INSERT INTO "GroupStaff" ("id", "groupId", "userId", "role", "createdAt")
SELECT 'gs' || md5(random()::text || "id"), "id", "createdById", 'OWNER', CURRENT_TIMESTAMP
FROM "Group" WHERE "createdById" IS NOT NULL;
