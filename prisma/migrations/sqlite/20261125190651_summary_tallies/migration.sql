-- CreateTable
CREATE TABLE "SummaryTotal" (
    "formId" TEXT NOT NULL,
    "assignedById" TEXT NOT NULL,
    "totalScore" REAL NOT NULL,
    "results" INTEGER NOT NULL,

    PRIMARY KEY ("formId", "assignedById", "totalScore"),
    CONSTRAINT "SummaryTotal_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SummaryChoice" (
    "formId" TEXT NOT NULL,
    "assignedById" TEXT NOT NULL,
    "questionId" TEXT NOT NULL,
    "optionId" TEXT NOT NULL,
    "answers" INTEGER NOT NULL,
    "scoreSum" REAL NOT NULL,

    PRIMARY KEY ("formId", "assignedById", "questionId", "optionId"),
    CONSTRAINT "SummaryChoice_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The tallies' triggers (hand-written; docs/decisions/0032-summary-tallies.md). Prisma does not
-- model triggers: the drift check (server/database/migrations.ts, HAND_WRITTEN_OBJECTS) checks that
-- they exist after the migrations ran.
--
-- A result counts while it is completed, not deleted and scored. Whenever a write makes a result
-- count, stop counting, or count under another form, assigner or total, its total and its answers
-- move between the tallies in the writing transaction; an answer written or removed while its
-- result counts moves alone. Nothing else does: a link sent, opened or renamed touches no tally.
-- A deleted result's answers are taken out BEFORE the row goes (its cascade then finds no result).
-- Every aggregate below has a GROUP BY, so a result without answers adds no empty row.
CREATE TRIGGER "Submission_summary_insert" AFTER INSERT ON "Submission"
WHEN new."isCompleted" = TRUE AND new."deletedAt" IS NULL AND new."totalScore" IS NOT NULL BEGIN
    INSERT INTO "SummaryTotal" ("formId", "assignedById", "totalScore", "results") VALUES (new."formId", new."assignedById", new."totalScore", 1)
        ON CONFLICT ("formId", "assignedById", "totalScore") DO UPDATE SET "results" = "results" + excluded."results";
END;

CREATE TRIGGER "Submission_summary_update" AFTER UPDATE OF "isCompleted", "deletedAt", "totalScore", "formId", "assignedById" ON "Submission"
WHEN (old."isCompleted" = TRUE AND old."deletedAt" IS NULL AND old."totalScore" IS NOT NULL) IS NOT (new."isCompleted" = TRUE AND new."deletedAt" IS NULL AND new."totalScore" IS NOT NULL)
    OR ((old."isCompleted" = TRUE AND old."deletedAt" IS NULL AND old."totalScore" IS NOT NULL)
        AND (old."formId" IS NOT new."formId" OR old."assignedById" IS NOT new."assignedById" OR old."totalScore" IS NOT new."totalScore")) BEGIN
    INSERT INTO "SummaryTotal" ("formId", "assignedById", "totalScore", "results")
        SELECT old."formId", old."assignedById", old."totalScore", -1
        WHERE old."isCompleted" = TRUE AND old."deletedAt" IS NULL AND old."totalScore" IS NOT NULL
        ON CONFLICT ("formId", "assignedById", "totalScore") DO UPDATE SET "results" = "results" + excluded."results";
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT * FROM (
            SELECT old."formId", old."assignedById", a."questionId", '', -COUNT(*), -SUM(a."score") FROM "Answer" AS a
            WHERE a."submissionId" = old."id" AND (json_array_length(a."optionIds") > 0 OR a."text" IS NOT NULL) GROUP BY a."questionId"
            UNION ALL
            SELECT old."formId", old."assignedById", a."questionId", o.value, -COUNT(*), 0 FROM "Answer" AS a, json_each(a."optionIds") AS o
            WHERE a."submissionId" = old."id" GROUP BY a."questionId", o.value
        ) WHERE old."isCompleted" = TRUE AND old."deletedAt" IS NULL AND old."totalScore" IS NOT NULL
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId") DO UPDATE SET "answers" = "answers" + excluded."answers", "scoreSum" = "scoreSum" + excluded."scoreSum";
    INSERT INTO "SummaryTotal" ("formId", "assignedById", "totalScore", "results")
        SELECT new."formId", new."assignedById", new."totalScore", 1
        WHERE new."isCompleted" = TRUE AND new."deletedAt" IS NULL AND new."totalScore" IS NOT NULL
        ON CONFLICT ("formId", "assignedById", "totalScore") DO UPDATE SET "results" = "results" + excluded."results";
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT * FROM (
            SELECT new."formId", new."assignedById", a."questionId", '', COUNT(*), SUM(a."score") FROM "Answer" AS a
            WHERE a."submissionId" = new."id" AND (json_array_length(a."optionIds") > 0 OR a."text" IS NOT NULL) GROUP BY a."questionId"
            UNION ALL
            SELECT new."formId", new."assignedById", a."questionId", o.value, COUNT(*), 0 FROM "Answer" AS a, json_each(a."optionIds") AS o
            WHERE a."submissionId" = new."id" GROUP BY a."questionId", o.value
        ) WHERE new."isCompleted" = TRUE AND new."deletedAt" IS NULL AND new."totalScore" IS NOT NULL
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId") DO UPDATE SET "answers" = "answers" + excluded."answers", "scoreSum" = "scoreSum" + excluded."scoreSum";
END;

CREATE TRIGGER "Submission_summary_delete" BEFORE DELETE ON "Submission"
WHEN old."isCompleted" = TRUE AND old."deletedAt" IS NULL AND old."totalScore" IS NOT NULL BEGIN
    INSERT INTO "SummaryTotal" ("formId", "assignedById", "totalScore", "results") VALUES (old."formId", old."assignedById", old."totalScore", -1)
        ON CONFLICT ("formId", "assignedById", "totalScore") DO UPDATE SET "results" = "results" + excluded."results";
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT * FROM (
            SELECT old."formId", old."assignedById", a."questionId", '', -COUNT(*), -SUM(a."score") FROM "Answer" AS a
            WHERE a."submissionId" = old."id" AND (json_array_length(a."optionIds") > 0 OR a."text" IS NOT NULL) GROUP BY a."questionId"
            UNION ALL
            SELECT old."formId", old."assignedById", a."questionId", o.value, -COUNT(*), 0 FROM "Answer" AS a, json_each(a."optionIds") AS o
            WHERE a."submissionId" = old."id" GROUP BY a."questionId", o.value
        ) WHERE TRUE
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId") DO UPDATE SET "answers" = "answers" + excluded."answers", "scoreSum" = "scoreSum" + excluded."scoreSum";
END;

CREATE TRIGGER "Answer_summary_insert" AFTER INSERT ON "Answer" BEGIN
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT s."formId", s."assignedById", new."questionId", '', 1, new."score" FROM "Submission" AS s
        WHERE s."id" = new."submissionId" AND s."isCompleted" = TRUE AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
            AND (json_array_length(new."optionIds") > 0 OR new."text" IS NOT NULL)
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId") DO UPDATE SET "answers" = "answers" + excluded."answers", "scoreSum" = "scoreSum" + excluded."scoreSum";
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT s."formId", s."assignedById", new."questionId", o.value, COUNT(*), 0 FROM "Submission" AS s, json_each(new."optionIds") AS o
        WHERE s."id" = new."submissionId" AND s."isCompleted" = TRUE AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
        GROUP BY o.value
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId") DO UPDATE SET "answers" = "answers" + excluded."answers", "scoreSum" = "scoreSum" + excluded."scoreSum";
END;

CREATE TRIGGER "Answer_summary_delete" AFTER DELETE ON "Answer" BEGIN
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT s."formId", s."assignedById", old."questionId", '', -1, -old."score" FROM "Submission" AS s
        WHERE s."id" = old."submissionId" AND s."isCompleted" = TRUE AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
            AND (json_array_length(old."optionIds") > 0 OR old."text" IS NOT NULL)
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId") DO UPDATE SET "answers" = "answers" + excluded."answers", "scoreSum" = "scoreSum" + excluded."scoreSum";
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT s."formId", s."assignedById", old."questionId", o.value, -COUNT(*), 0 FROM "Submission" AS s, json_each(old."optionIds") AS o
        WHERE s."id" = old."submissionId" AND s."isCompleted" = TRUE AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
        GROUP BY o.value
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId") DO UPDATE SET "answers" = "answers" + excluded."answers", "scoreSum" = "scoreSum" + excluded."scoreSum";
END;

-- An answer is never rewritten by the application; if one is, it moves out and back in.
CREATE TRIGGER "Answer_summary_update" AFTER UPDATE OF "submissionId", "questionId", "optionIds", "text", "score" ON "Answer" BEGIN
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT s."formId", s."assignedById", old."questionId", '', -1, -old."score" FROM "Submission" AS s
        WHERE s."id" = old."submissionId" AND s."isCompleted" = TRUE AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
            AND (json_array_length(old."optionIds") > 0 OR old."text" IS NOT NULL)
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId") DO UPDATE SET "answers" = "answers" + excluded."answers", "scoreSum" = "scoreSum" + excluded."scoreSum";
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT s."formId", s."assignedById", old."questionId", o.value, -COUNT(*), 0 FROM "Submission" AS s, json_each(old."optionIds") AS o
        WHERE s."id" = old."submissionId" AND s."isCompleted" = TRUE AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
        GROUP BY o.value
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId") DO UPDATE SET "answers" = "answers" + excluded."answers", "scoreSum" = "scoreSum" + excluded."scoreSum";
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT s."formId", s."assignedById", new."questionId", '', 1, new."score" FROM "Submission" AS s
        WHERE s."id" = new."submissionId" AND s."isCompleted" = TRUE AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
            AND (json_array_length(new."optionIds") > 0 OR new."text" IS NOT NULL)
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId") DO UPDATE SET "answers" = "answers" + excluded."answers", "scoreSum" = "scoreSum" + excluded."scoreSum";
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT s."formId", s."assignedById", new."questionId", o.value, COUNT(*), 0 FROM "Submission" AS s, json_each(new."optionIds") AS o
        WHERE s."id" = new."submissionId" AND s."isCompleted" = TRUE AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
        GROUP BY o.value
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId") DO UPDATE SET "answers" = "answers" + excluded."answers", "scoreSum" = "scoreSum" + excluded."scoreSum";
END;

-- The tallies of the results already there.
INSERT INTO "SummaryTotal" ("formId", "assignedById", "totalScore", "results")
    SELECT "formId", "assignedById", "totalScore", COUNT(*) FROM "Submission"
    WHERE "isCompleted" = TRUE AND "deletedAt" IS NULL AND "totalScore" IS NOT NULL
    GROUP BY "formId", "assignedById", "totalScore";
INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
    SELECT s."formId", s."assignedById", a."questionId", '', COUNT(*), SUM(a."score") FROM "Answer" AS a JOIN "Submission" AS s ON s."id" = a."submissionId"
    WHERE s."isCompleted" = TRUE AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL AND (json_array_length(a."optionIds") > 0 OR a."text" IS NOT NULL)
    GROUP BY s."formId", s."assignedById", a."questionId"
    UNION ALL
    SELECT s."formId", s."assignedById", a."questionId", o.value, COUNT(*), 0 FROM "Answer" AS a JOIN "Submission" AS s ON s."id" = a."submissionId", json_each(a."optionIds") AS o
    WHERE s."isCompleted" = TRUE AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
    GROUP BY s."formId", s."assignedById", a."questionId", o.value;
