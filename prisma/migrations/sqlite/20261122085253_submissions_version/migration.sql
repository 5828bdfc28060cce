-- DropIndex
DROP INDEX "Submission_formId_idx";

-- CreateTable
CREATE TABLE "SubmissionsVersion" (
    "organizationId" TEXT NOT NULL PRIMARY KEY,
    "version" TEXT NOT NULL,
    CONSTRAINT "SubmissionsVersion_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Submission_formId_deletedAt_idx" ON "Submission"("formId", "deletedAt");

-- The version of each organization's submissions (hand-written; docs/decisions/0013-report-totals.md).
-- Prisma does not model triggers: the drift check (scripts/lib/migrations.ts, HAND_WRITTEN_OBJECTS)
-- checks that they exist after the migrations ran.
--
-- Any INSERT, UPDATE or DELETE of a "Submission" row writes a new random version (32 hex digits)
-- into the row of its organization, inside the writing transaction, so a reader never sees the new
-- submissions together with the old version. Every UPDATE counts, whatever its columns: Prisma
-- sets "updatedAt" on every update anyway, so a column list would save next to nothing, and it
-- could not forget a column that a later list or count starts to read. An UPDATE that moves a
-- submission to another organization (the application never does) changes both organizations'
-- rows. A version is random rather than a counter so that a database restored from a backup can
-- never show again a version that a cache has seen with other data.
CREATE TRIGGER "Submission_version_insert" AFTER INSERT ON "Submission" BEGIN
    INSERT INTO "SubmissionsVersion" ("organizationId", "version") VALUES (new."organizationId", lower(hex(randomblob(16))))
        ON CONFLICT ("organizationId") DO UPDATE SET "version" = excluded."version";
END;

CREATE TRIGGER "Submission_version_update" AFTER UPDATE ON "Submission" BEGIN
    INSERT INTO "SubmissionsVersion" ("organizationId", "version") VALUES (new."organizationId", lower(hex(randomblob(16))))
        ON CONFLICT ("organizationId") DO UPDATE SET "version" = excluded."version";
    INSERT INTO "SubmissionsVersion" ("organizationId", "version")
        SELECT old."organizationId", lower(hex(randomblob(16))) WHERE old."organizationId" IS NOT new."organizationId"
        ON CONFLICT ("organizationId") DO UPDATE SET "version" = excluded."version";
END;

CREATE TRIGGER "Submission_version_delete" AFTER DELETE ON "Submission" BEGIN
    INSERT INTO "SubmissionsVersion" ("organizationId", "version") VALUES (old."organizationId", lower(hex(randomblob(16))))
        ON CONFLICT ("organizationId") DO UPDATE SET "version" = excluded."version";
END;

-- A row for every organization that exists: the caches only trust a version they have read from a
-- row (no row, no caching), and an organization gets its row at the latest with its next submission.
INSERT INTO "SubmissionsVersion" ("organizationId", "version") SELECT "id", lower(hex(randomblob(16))) FROM "Organization";
