-- CreateTable
CREATE TABLE "SubmissionCount" (
    "organizationId" TEXT NOT NULL,
    "assignedById" TEXT NOT NULL,
    "formId" TEXT NOT NULL,
    "submissions" INTEGER NOT NULL,
    "completed" INTEGER NOT NULL,

    CONSTRAINT "SubmissionCount_pkey" PRIMARY KEY ("organizationId","assignedById","formId")
);

-- CreateIndex
CREATE INDEX "SubmissionCount_formId_idx" ON "SubmissionCount"("formId");

-- AddForeignKey
ALTER TABLE "SubmissionCount" ADD CONSTRAINT "SubmissionCount_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The counts' triggers (hand-written; docs/decisions/0036-submission-counts.md). Prisma does not
-- model functions and triggers: the drift check (server/database/migrations.ts,
-- HAND_WRITTEN_OBJECTS) checks that they exist after the migrations ran.
--
-- A submission counts while it is not deleted, under its organization, assigner and form; it
-- counts as completed too while it is completed. Whenever a write changes one of those, its -1
-- goes where it was counted and its +1 where it counts now, in the writing transaction. Nothing
-- else touches a count: a link opened, a draft saved or a person renamed writes no count.
--
-- Statement-level triggers with transition tables, as the version's (ADR 13) and the tallies'
-- (ADR 32): one upsert per statement and key, in key order. PostgreSQL fires a table's triggers
-- in the order of their names; "Submission_with_count_*" comes after "Submission_version_*", so a
-- writer holds its organization's version row (which puts the organization's writers in line)
-- before it locks a count row.
CREATE FUNCTION "Submission_count_tally"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO "SubmissionCount" ("organizationId", "assignedById", "formId", "submissions", "completed")
        SELECT "organizationId", "assignedById", "formId", COUNT(*), COUNT(*) FILTER (WHERE "isCompleted") FROM new_rows
        WHERE "deletedAt" IS NULL
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT ("organizationId", "assignedById", "formId") DO UPDATE
        SET "submissions" = "SubmissionCount"."submissions" + excluded."submissions", "completed" = "SubmissionCount"."completed" + excluded."completed";
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO "SubmissionCount" ("organizationId", "assignedById", "formId", "submissions", "completed")
        SELECT o."organizationId", o."assignedById", o."formId", -COUNT(*), -COUNT(*) FILTER (WHERE o."isCompleted") FROM old_rows AS o
        WHERE o."deletedAt" IS NULL
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT ("organizationId", "assignedById", "formId") DO UPDATE
        SET "submissions" = "SubmissionCount"."submissions" + excluded."submissions", "completed" = "SubmissionCount"."completed" + excluded."completed";
    ELSE
        WITH moved AS (
            SELECT o."organizationId" AS "oldOrganizationId", o."assignedById" AS "oldAssignedById", o."formId" AS "oldFormId",
                o."isCompleted" AS "oldCompleted", o."deletedAt" IS NULL AS "oldCounts",
                n."organizationId" AS "newOrganizationId", n."assignedById" AS "newAssignedById", n."formId" AS "newFormId",
                n."isCompleted" AS "newCompleted", n."deletedAt" IS NULL AS "newCounts"
            FROM old_rows AS o JOIN new_rows AS n ON n."id" = o."id"
            WHERE (o."deletedAt" IS NULL, o."isCompleted", o."organizationId", o."assignedById", o."formId")
                IS DISTINCT FROM (n."deletedAt" IS NULL, n."isCompleted", n."organizationId", n."assignedById", n."formId")
        ), changes AS (
            SELECT "oldOrganizationId" AS "organizationId", "oldAssignedById" AS "assignedById", "oldFormId" AS "formId",
                -1 AS "submissions", CASE WHEN "oldCompleted" THEN -1 ELSE 0 END AS "completed"
            FROM moved WHERE "oldCounts"
            UNION ALL
            SELECT "newOrganizationId", "newAssignedById", "newFormId", 1, CASE WHEN "newCompleted" THEN 1 ELSE 0 END
            FROM moved WHERE "newCounts"
        )
        INSERT INTO "SubmissionCount" ("organizationId", "assignedById", "formId", "submissions", "completed")
        SELECT "organizationId", "assignedById", "formId", SUM("submissions"), SUM("completed") FROM changes
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT ("organizationId", "assignedById", "formId") DO UPDATE
        SET "submissions" = "SubmissionCount"."submissions" + excluded."submissions", "completed" = "SubmissionCount"."completed" + excluded."completed";
    END IF;
    RETURN NULL;
END;
$$;

CREATE FUNCTION "Submission_count_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "SubmissionCount";
    RETURN NULL;
END;
$$;

CREATE TRIGGER "Submission_with_count_insert" AFTER INSERT ON "Submission"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Submission_count_tally"();
CREATE TRIGGER "Submission_with_count_update" AFTER UPDATE ON "Submission"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Submission_count_tally"();
CREATE TRIGGER "Submission_with_count_delete" AFTER DELETE ON "Submission"
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "Submission_count_tally"();
CREATE TRIGGER "Submission_with_count_truncate" AFTER TRUNCATE ON "Submission"
    FOR EACH STATEMENT EXECUTE FUNCTION "Submission_count_truncate"();

-- The submissions that exist already.
INSERT INTO "SubmissionCount" ("organizationId", "assignedById", "formId", "submissions", "completed")
    SELECT "organizationId", "assignedById", "formId", COUNT(*), COUNT(*) FILTER (WHERE "isCompleted")
    FROM "Submission" WHERE "deletedAt" IS NULL GROUP BY 1, 2, 3;
