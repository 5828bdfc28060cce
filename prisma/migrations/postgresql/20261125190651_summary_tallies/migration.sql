-- CreateTable
CREATE TABLE "SummaryTotal" (
    "formId" TEXT NOT NULL,
    "assignedById" TEXT NOT NULL,
    "totalScore" DOUBLE PRECISION NOT NULL,
    "results" INTEGER NOT NULL,

    CONSTRAINT "SummaryTotal_pkey" PRIMARY KEY ("formId","assignedById","totalScore")
);

-- CreateTable
CREATE TABLE "SummaryChoice" (
    "formId" TEXT NOT NULL,
    "assignedById" TEXT NOT NULL,
    "questionId" TEXT NOT NULL,
    "optionId" TEXT NOT NULL,
    "answers" INTEGER NOT NULL,
    "scoreSum" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "SummaryChoice_pkey" PRIMARY KEY ("formId","assignedById","questionId","optionId")
);

-- AddForeignKey
ALTER TABLE "SummaryTotal" ADD CONSTRAINT "SummaryTotal_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SummaryChoice" ADD CONSTRAINT "SummaryChoice_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The tallies' triggers (hand-written; docs/decisions/0032-summary-tallies.md). Prisma does not
-- model functions and triggers: the drift check (server/database/migrations.ts,
-- HAND_WRITTEN_OBJECTS) checks that they exist after the migrations ran.
--
-- A result counts while it is completed, not deleted and scored. Whenever a write makes a result
-- count, stop counting, or count under another form, assigner or total, its total and its answers
-- move between the tallies in the writing transaction; an answer written or removed while its
-- result counts moves alone. Nothing else does: a link sent, opened or renamed touches no tally.
--
-- Statement-level triggers with transition tables, as the version's (ADR 13): one upsert per
-- statement and key, in key order, so that two writers never lock tally rows in opposite orders.
-- A deleted result's answers are taken out by a row trigger BEFORE the row goes (the statement's
-- cascade to "Answer" then finds no result to count them under).
CREATE FUNCTION "Submission_summary_tally"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO "SummaryTotal" ("formId", "assignedById", "totalScore", "results")
        SELECT "formId", "assignedById", "totalScore", COUNT(*) FROM new_rows
        WHERE "isCompleted" AND "deletedAt" IS NULL AND "totalScore" IS NOT NULL
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT ("formId", "assignedById", "totalScore") DO UPDATE SET "results" = "SummaryTotal"."results" + excluded."results";
        RETURN NULL;
    END IF;
    -- UPDATE: the rows whose counting changed, each with -1 as it was and +1 as it is.
    WITH moved AS (
        SELECT o."id",
            o."formId" AS "oldFormId", o."assignedById" AS "oldAssignedById", o."totalScore" AS "oldTotal",
            (o."isCompleted" AND o."deletedAt" IS NULL AND o."totalScore" IS NOT NULL) AS "oldCounts",
            n."formId" AS "newFormId", n."assignedById" AS "newAssignedById", n."totalScore" AS "newTotal",
            (n."isCompleted" AND n."deletedAt" IS NULL AND n."totalScore" IS NOT NULL) AS "newCounts"
        FROM old_rows AS o JOIN new_rows AS n ON n."id" = o."id"
    ), changes AS (
        SELECT "id", "oldFormId" AS "formId", "oldAssignedById" AS "assignedById", "oldTotal" AS "totalScore", -1 AS "sign" FROM moved
        WHERE "oldCounts" AND ("newCounts" IS NOT TRUE OR ("oldFormId", "oldAssignedById", "oldTotal") IS DISTINCT FROM ("newFormId", "newAssignedById", "newTotal"))
        UNION ALL
        SELECT "id", "newFormId", "newAssignedById", "newTotal", 1 FROM moved
        WHERE "newCounts" AND ("oldCounts" IS NOT TRUE OR ("oldFormId", "oldAssignedById", "oldTotal") IS DISTINCT FROM ("newFormId", "newAssignedById", "newTotal"))
    ), totals AS (
        INSERT INTO "SummaryTotal" ("formId", "assignedById", "totalScore", "results")
        SELECT "formId", "assignedById", "totalScore", SUM("sign") FROM changes
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT ("formId", "assignedById", "totalScore") DO UPDATE SET "results" = "SummaryTotal"."results" + excluded."results"
    )
    INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
    SELECT "formId", "assignedById", "questionId", "optionId", SUM("answers"), SUM("scoreSum") FROM (
        SELECT c."formId", c."assignedById", a."questionId", '' AS "optionId", c."sign" AS "answers", c."sign" * a."score" AS "scoreSum"
        FROM changes AS c JOIN "Answer" AS a ON a."submissionId" = c."id"
        WHERE jsonb_array_length(a."optionIds") > 0 OR a."text" IS NOT NULL
        UNION ALL
        SELECT c."formId", c."assignedById", a."questionId", e.value, c."sign", 0
        FROM changes AS c JOIN "Answer" AS a ON a."submissionId" = c."id" CROSS JOIN LATERAL jsonb_array_elements_text(a."optionIds") AS e(value)
    ) AS moves
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT ("formId", "assignedById", "questionId", "optionId")
        DO UPDATE SET "answers" = "SummaryChoice"."answers" + excluded."answers", "scoreSum" = "SummaryChoice"."scoreSum" + excluded."scoreSum";
    RETURN NULL;
END;
$$;

CREATE FUNCTION "Submission_summary_forget"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF old."isCompleted" AND old."deletedAt" IS NULL AND old."totalScore" IS NOT NULL THEN
        INSERT INTO "SummaryTotal" ("formId", "assignedById", "totalScore", "results") VALUES (old."formId", old."assignedById", old."totalScore", -1)
        ON CONFLICT ("formId", "assignedById", "totalScore") DO UPDATE SET "results" = "SummaryTotal"."results" + excluded."results";
        INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT old."formId", old."assignedById", "questionId", "optionId", -COUNT(*), -SUM("score") FROM (
            SELECT a."questionId", '' AS "optionId", a."score" FROM "Answer" AS a
            WHERE a."submissionId" = old."id" AND (jsonb_array_length(a."optionIds") > 0 OR a."text" IS NOT NULL)
            UNION ALL
            SELECT a."questionId", e.value, 0 FROM "Answer" AS a CROSS JOIN LATERAL jsonb_array_elements_text(a."optionIds") AS e(value)
            WHERE a."submissionId" = old."id"
        ) AS answers
        GROUP BY 3, 4 ORDER BY 3, 4
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId")
            DO UPDATE SET "answers" = "SummaryChoice"."answers" + excluded."answers", "scoreSum" = "SummaryChoice"."scoreSum" + excluded."scoreSum";
    END IF;
    RETURN old;
END;
$$;

-- Answers written or removed while their result counts (an answer is never rewritten by the
-- application; if one is, it moves out and back in).
CREATE FUNCTION "Answer_summary_tally"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT "formId", "assignedById", "questionId", "optionId", -COUNT(*), -SUM("score") FROM (
            SELECT s."formId", s."assignedById", a."questionId", '' AS "optionId", a."score"
            FROM old_rows AS a JOIN "Submission" AS s ON s."id" = a."submissionId"
            WHERE s."isCompleted" AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL AND (jsonb_array_length(a."optionIds") > 0 OR a."text" IS NOT NULL)
            UNION ALL
            SELECT s."formId", s."assignedById", a."questionId", e.value, 0
            FROM old_rows AS a JOIN "Submission" AS s ON s."id" = a."submissionId" CROSS JOIN LATERAL jsonb_array_elements_text(a."optionIds") AS e(value)
            WHERE s."isCompleted" AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
        ) AS answers
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId")
            DO UPDATE SET "answers" = "SummaryChoice"."answers" + excluded."answers", "scoreSum" = "SummaryChoice"."scoreSum" + excluded."scoreSum";
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
        SELECT "formId", "assignedById", "questionId", "optionId", COUNT(*), SUM("score") FROM (
            SELECT s."formId", s."assignedById", a."questionId", '' AS "optionId", a."score"
            FROM new_rows AS a JOIN "Submission" AS s ON s."id" = a."submissionId"
            WHERE s."isCompleted" AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL AND (jsonb_array_length(a."optionIds") > 0 OR a."text" IS NOT NULL)
            UNION ALL
            SELECT s."formId", s."assignedById", a."questionId", e.value, 0
            FROM new_rows AS a JOIN "Submission" AS s ON s."id" = a."submissionId" CROSS JOIN LATERAL jsonb_array_elements_text(a."optionIds") AS e(value)
            WHERE s."isCompleted" AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
        ) AS answers
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT ("formId", "assignedById", "questionId", "optionId")
            DO UPDATE SET "answers" = "SummaryChoice"."answers" + excluded."answers", "scoreSum" = "SummaryChoice"."scoreSum" + excluded."scoreSum";
    END IF;
    RETURN NULL;
END;
$$;

-- TRUNCATE leaves nothing to count.
CREATE FUNCTION "Summary_tally_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'Submission' THEN
        DELETE FROM "SummaryTotal";
    END IF;
    DELETE FROM "SummaryChoice";
    RETURN NULL;
END;
$$;

CREATE TRIGGER "Submission_summary_insert" AFTER INSERT ON "Submission"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Submission_summary_tally"();
CREATE TRIGGER "Submission_summary_update" AFTER UPDATE ON "Submission"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Submission_summary_tally"();
CREATE TRIGGER "Submission_summary_delete" BEFORE DELETE ON "Submission"
    FOR EACH ROW EXECUTE FUNCTION "Submission_summary_forget"();
CREATE TRIGGER "Submission_summary_truncate" AFTER TRUNCATE ON "Submission"
    FOR EACH STATEMENT EXECUTE FUNCTION "Summary_tally_truncate"();
CREATE TRIGGER "Answer_summary_insert" AFTER INSERT ON "Answer"
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Answer_summary_tally"();
CREATE TRIGGER "Answer_summary_update" AFTER UPDATE ON "Answer"
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "Answer_summary_tally"();
CREATE TRIGGER "Answer_summary_delete" AFTER DELETE ON "Answer"
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "Answer_summary_tally"();
CREATE TRIGGER "Answer_summary_truncate" AFTER TRUNCATE ON "Answer"
    FOR EACH STATEMENT EXECUTE FUNCTION "Summary_tally_truncate"();

-- The tallies of the results already there.
INSERT INTO "SummaryTotal" ("formId", "assignedById", "totalScore", "results")
    SELECT "formId", "assignedById", "totalScore", COUNT(*) FROM "Submission"
    WHERE "isCompleted" AND "deletedAt" IS NULL AND "totalScore" IS NOT NULL
    GROUP BY 1, 2, 3;
INSERT INTO "SummaryChoice" ("formId", "assignedById", "questionId", "optionId", "answers", "scoreSum")
    SELECT s."formId", s."assignedById", a."questionId", '', COUNT(*), SUM(a."score") FROM "Answer" AS a JOIN "Submission" AS s ON s."id" = a."submissionId"
    WHERE s."isCompleted" AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL AND (jsonb_array_length(a."optionIds") > 0 OR a."text" IS NOT NULL)
    GROUP BY 1, 2, 3
    UNION ALL
    SELECT s."formId", s."assignedById", a."questionId", e.value, COUNT(*), 0
    FROM "Answer" AS a JOIN "Submission" AS s ON s."id" = a."submissionId" CROSS JOIN LATERAL jsonb_array_elements_text(a."optionIds") AS e(value)
    WHERE s."isCompleted" AND s."deletedAt" IS NULL AND s."totalScore" IS NOT NULL
    GROUP BY 1, 2, 3, 4;
