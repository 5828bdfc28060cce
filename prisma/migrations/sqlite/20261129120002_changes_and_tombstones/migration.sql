-- CreateTable
CREATE TABLE "Tombstone" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "ownerId" TEXT,
    "audience" TEXT NOT NULL,
    "deletedAt" DATETIME NOT NULL,
    CONSTRAINT "Tombstone_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Tombstone_organizationId_kind_deletedAt_itemId_idx" ON "Tombstone"("organizationId", "kind", "deletedAt", "itemId");

-- CreateIndex
CREATE INDEX "Tombstone_deletedAt_idx" ON "Tombstone"("deletedAt");

-- CreateIndex
CREATE INDEX "Candidate_organizationId_updatedAt_id_idx" ON "Candidate"("organizationId", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "Form_organizationId_updatedAt_id_idx" ON "Form"("organizationId", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "Group_organizationId_updatedAt_id_idx" ON "Group"("organizationId", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "Student_organizationId_updatedAt_id_idx" ON "Student"("organizationId", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "Submission_organization_changes_idx" ON "Submission"("organizationId", "updatedAt", "id");

-- CreateIndex
CREATE INDEX "Submission_organization_completed_changes_idx" ON "Submission"("organizationId", "isCompleted", "updatedAt", "id", "deletedAt");

-- What was deleted before this migration, as tombstones (ADR 52), so that a client reading the
-- changes since a moment before the upgrade learns of those deletions too. The housekeeping
-- removes the ones older than 90 days at its next run, as it removes every tombstone.
INSERT INTO "Tombstone" ("id", "organizationId", "kind", "itemId", "ownerId", "audience", "deletedAt")
SELECT 'tf' || "id", "organizationId", 'form', "id", "createdById", CASE WHEN "isTemplate" THEN 'ALL' ELSE 'OWNER' END, "deletedAt"
  FROM "Form" WHERE "deletedAt" IS NOT NULL;
INSERT INTO "Tombstone" ("id", "organizationId", "kind", "itemId", "ownerId", "audience", "deletedAt")
SELECT 'ts' || "id", "organizationId", 'student', "id", NULL, 'ALL', "deletedAt" FROM "Student" WHERE "deletedAt" IS NOT NULL;
INSERT INTO "Tombstone" ("id", "organizationId", "kind", "itemId", "ownerId", "audience", "deletedAt")
SELECT 'tc' || "id", "organizationId", 'candidate', "id", NULL, 'ALL', "deletedAt" FROM "Candidate" WHERE "deletedAt" IS NOT NULL;
INSERT INTO "Tombstone" ("id", "organizationId", "kind", "itemId", "ownerId", "audience", "deletedAt")
SELECT 'tg' || "id", "organizationId", 'group', "id", NULL, 'ALL', "deletedAt" FROM "Group" WHERE "deletedAt" IS NOT NULL;
INSERT INTO "Tombstone" ("id", "organizationId", "kind", "itemId", "ownerId", "audience", "deletedAt")
SELECT 'tu' || "id", "organizationId", 'submission', "id", "assignedById", 'OWNER', "deletedAt" FROM "Submission" WHERE "deletedAt" IS NOT NULL;
