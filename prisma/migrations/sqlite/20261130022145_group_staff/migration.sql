-- Group staff (docs/api-contract.md §19, ADR 86): who shares a group, and the group a link was
-- given to. The Submission column is added by hand with ALTER TABLE rather than the engine's table
-- rebuild, which would drop the Submission triggers of ADR 11, 13, 32 and 36 (see
-- 20261129221016_critical_answers_acknowledged).
CREATE TABLE "GroupStaff" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "groupId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "GroupStaff_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "Group" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "GroupStaff_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "GroupStaff_groupId_userId_key" ON "GroupStaff"("groupId", "userId");
CREATE INDEX "GroupStaff_userId_idx" ON "GroupStaff"("userId");

ALTER TABLE "Submission" ADD COLUMN "groupId" TEXT REFERENCES "Group" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "Submission_groupId_idx" ON "Submission"("groupId");

-- Each existing group's creator, while still a user, becomes its first owner. Links given to a
-- group before this have no record of it and stay their assigner's.
INSERT INTO "GroupStaff" ("id", "groupId", "userId", "role", "createdAt")
SELECT 'gs' || lower(hex(randomblob(12))), "id", "createdById", 'OWNER', CURRENT_TIMESTAMP
FROM "Group" WHERE "createdById" IS NOT NULL;
