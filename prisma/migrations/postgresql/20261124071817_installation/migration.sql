-- AlterTable
ALTER TABLE "Organization" ADD COLUMN     "timeZone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateTable
CREATE TABLE "InstanceSetting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "InstanceSetting_pkey" PRIMARY KEY ("key")
);

-- A completed submission always has its form's title in "formTitle" (hand-written; ADR 16). An
-- instance of a version older than that column, still running during a rolling upgrade, completes
-- submissions without it; the reports list would show them without a title for good. The title is
-- in the scoring snapshot, so the database fills it in. Checked by the drift check
-- (scripts/lib/migrations.ts, HAND_WRITTEN_OBJECTS).
CREATE FUNCTION "Submission_form_title_fill"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."formTitle" IS NULL AND NEW."scoredAgainst" IS NOT NULL THEN
        NEW."formTitle" := NEW."scoredAgainst"->'form'->>'title';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER "Submission_form_title" BEFORE INSERT OR UPDATE ON "Submission"
    FOR EACH ROW EXECUTE FUNCTION "Submission_form_title_fill"();

UPDATE "Submission" SET "formTitle" = "scoredAgainst"->'form'->>'title' WHERE "formTitle" IS NULL AND "scoredAgainst" IS NOT NULL;
