-- CreateTable
CREATE TABLE "SubmissionCount" (
    "organizationId" TEXT NOT NULL,
    "assignedById" TEXT NOT NULL,
    "formId" TEXT NOT NULL,
    "submissions" INTEGER NOT NULL,
    "completed" INTEGER NOT NULL,

    PRIMARY KEY ("organizationId", "assignedById", "formId"),
    CONSTRAINT "SubmissionCount_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "SubmissionCount_formId_idx" ON "SubmissionCount"("formId");

-- The counts' triggers (hand-written; docs/decisions/0036-submission-counts.md). Prisma does not
-- model triggers: the drift check (server/database/migrations.ts, HAND_WRITTEN_OBJECTS) checks
-- that they exist after the migrations ran.
--
-- A submission counts while it is not deleted, under its organization, assigner and form; it
-- counts as completed too while it is completed. Whenever a write changes one of those, its -1
-- goes where it was counted and its +1 where it counts now, in the writing transaction. Nothing
-- else touches a count: a link opened, a draft saved or a person renamed writes no count.
CREATE TRIGGER "Submission_with_count_insert" AFTER INSERT ON "Submission"
WHEN new."deletedAt" IS NULL BEGIN
    INSERT INTO "SubmissionCount" ("organizationId", "assignedById", "formId", "submissions", "completed")
        VALUES (new."organizationId", new."assignedById", new."formId", 1, new."isCompleted" = TRUE)
        ON CONFLICT ("organizationId", "assignedById", "formId") DO UPDATE
        SET "submissions" = "submissions" + excluded."submissions", "completed" = "completed" + excluded."completed";
END;

CREATE TRIGGER "Submission_with_count_update" AFTER UPDATE OF "isCompleted", "deletedAt", "organizationId", "assignedById", "formId" ON "Submission"
WHEN (old."deletedAt" IS NULL) IS NOT (new."deletedAt" IS NULL) OR old."isCompleted" IS NOT new."isCompleted"
    OR old."organizationId" IS NOT new."organizationId" OR old."assignedById" IS NOT new."assignedById" OR old."formId" IS NOT new."formId" BEGIN
    INSERT INTO "SubmissionCount" ("organizationId", "assignedById", "formId", "submissions", "completed")
        SELECT old."organizationId", old."assignedById", old."formId", -1, -(old."isCompleted" = TRUE) WHERE old."deletedAt" IS NULL
        ON CONFLICT ("organizationId", "assignedById", "formId") DO UPDATE
        SET "submissions" = "submissions" + excluded."submissions", "completed" = "completed" + excluded."completed";
    INSERT INTO "SubmissionCount" ("organizationId", "assignedById", "formId", "submissions", "completed")
        SELECT new."organizationId", new."assignedById", new."formId", 1, new."isCompleted" = TRUE WHERE new."deletedAt" IS NULL
        ON CONFLICT ("organizationId", "assignedById", "formId") DO UPDATE
        SET "submissions" = "submissions" + excluded."submissions", "completed" = "completed" + excluded."completed";
END;

CREATE TRIGGER "Submission_with_count_delete" AFTER DELETE ON "Submission"
WHEN old."deletedAt" IS NULL BEGIN
    INSERT INTO "SubmissionCount" ("organizationId", "assignedById", "formId", "submissions", "completed")
        VALUES (old."organizationId", old."assignedById", old."formId", -1, -(old."isCompleted" = TRUE))
        ON CONFLICT ("organizationId", "assignedById", "formId") DO UPDATE
        SET "submissions" = "submissions" + excluded."submissions", "completed" = "completed" + excluded."completed";
END;

-- The submissions that exist already.
INSERT INTO "SubmissionCount" ("organizationId", "assignedById", "formId", "submissions", "completed")
    SELECT "organizationId", "assignedById", "formId", COUNT(*), SUM(CASE WHEN "isCompleted" THEN 1 ELSE 0 END)
    FROM "Submission" WHERE "deletedAt" IS NULL GROUP BY 1, 2, 3;
