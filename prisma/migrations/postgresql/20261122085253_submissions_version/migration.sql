-- DropIndex
DROP INDEX "Submission_formId_idx";

-- CreateTable
CREATE TABLE "SubmissionsVersion" (
    "organizationId" TEXT NOT NULL,
    "version" TEXT NOT NULL,

    CONSTRAINT "SubmissionsVersion_pkey" PRIMARY KEY ("organizationId")
);

-- CreateIndex
CREATE INDEX "Submission_formId_deletedAt_idx" ON "Submission"("formId", "deletedAt");

-- AddForeignKey
ALTER TABLE "SubmissionsVersion" ADD CONSTRAINT "SubmissionsVersion_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The version of each organization's submissions (hand-written; docs/decisions/0013-report-totals.md).
-- Prisma does not model functions and triggers: the drift check (scripts/lib/migrations.ts,
-- HAND_WRITTEN_OBJECTS) checks that they exist after the migrations ran.
--
-- Any INSERT, UPDATE or DELETE of "Submission" rows writes a new random version (32 hex digits)
-- into the row of each organization it touched, inside the writing transaction, so a reader never
-- sees the new submissions together with the old version. Every UPDATE counts, whatever its
-- columns: Prisma sets "updatedAt" on every update anyway, so a column list would save next to
-- nothing, and it could not forget a column that a later list or count starts to read. An UPDATE
-- that moves a submission to another organization (the application never does) changes both
-- organizations' rows. A version is random rather than a counter so that a database restored from a
-- backup, or a replica promoted after losing the last commits, can never show again a version that
-- a cache has seen with other data.
--
-- Statement-level triggers with transition tables: one upsert per statement and organization, not
-- one per row (a rename rewrites all of a person's results in one UPDATE). The organizations are
-- upserted in id order, so two statements that touch several never lock their rows in opposite
-- orders. The row stays locked until the writing transaction ends: writes to the submissions of
-- one organization commit one after the other from their first Submission statement on. A
-- statement that changes no row changes no version and locks nothing. TRUNCATE changes every version.
CREATE FUNCTION "Submission_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO "SubmissionsVersion" ("organizationId", "version")
        SELECT "organizationId", replace(gen_random_uuid()::text, '-', '')
        FROM (SELECT DISTINCT "organizationId" FROM new_rows) AS changed ORDER BY "organizationId"
        ON CONFLICT ("organizationId") DO UPDATE SET "version" = excluded."version";
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO "SubmissionsVersion" ("organizationId", "version")
        SELECT "organizationId", replace(gen_random_uuid()::text, '-', '')
        FROM (SELECT "organizationId" FROM new_rows UNION SELECT "organizationId" FROM old_rows) AS changed ORDER BY "organizationId"
        ON CONFLICT ("organizationId") DO UPDATE SET "version" = excluded."version";
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO "SubmissionsVersion" ("organizationId", "version")
        SELECT "organizationId", replace(gen_random_uuid()::text, '-', '')
        FROM (SELECT DISTINCT "organizationId" FROM old_rows) AS changed ORDER BY "organizationId"
        ON CONFLICT ("organizationId") DO UPDATE SET "version" = excluded."version";
    ELSE -- TRUNCATE
        UPDATE "SubmissionsVersion" SET "version" = replace(gen_random_uuid()::text, '-', '');
    END IF;
    RETURN NULL;
END;
$$;

-- A trigger with transition tables may have only one event, hence one trigger per event.
CREATE TRIGGER "Submission_version_insert" AFTER INSERT ON "Submission"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Submission_version_bump"();
CREATE TRIGGER "Submission_version_update" AFTER UPDATE ON "Submission"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Submission_version_bump"();
CREATE TRIGGER "Submission_version_delete" AFTER DELETE ON "Submission"
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "Submission_version_bump"();
CREATE TRIGGER "Submission_version_truncate" AFTER TRUNCATE ON "Submission"
    FOR EACH STATEMENT EXECUTE FUNCTION "Submission_version_bump"();

-- A row for every organization that exists: the caches only trust a version they have read from a
-- row (no row, no caching), and an organization gets its row at the latest with its next submission.
INSERT INTO "SubmissionsVersion" ("organizationId", "version") SELECT "id", replace(gen_random_uuid()::text, '-', '') FROM "Organization";
