-- Care over time (docs/api-contract.md §18, ADR 80): a form's reliable-change constants, its
-- remission threshold and its direction, as columns added at the end by ALTER TABLE, so no table is
-- rebuilt.
ALTER TABLE "Form" ADD COLUMN "reliableChangeSd" REAL;
ALTER TABLE "Form" ADD COLUMN "reliableChangeReliability" REAL;
ALTER TABLE "Form" ADD COLUMN "remissionBelow" REAL;
ALTER TABLE "Form" ADD COLUMN "lowerIsBetter" BOOLEAN NOT NULL DEFAULT true;

-- An installed instrument kept the constants of its definition in its mark (ADR 72): they become
-- the form's own.
UPDATE "Form"
   SET "reliableChangeSd" = json_extract("instrument", '$.reliableChange.sd'),
       "reliableChangeReliability" = json_extract("instrument", '$.reliableChange.reliability'),
       "remissionBelow" = json_extract("instrument", '$.remissionBelow'),
       "lowerIsBetter" = COALESCE(json_extract("instrument", '$.lowerIsBetter'), 1)
 WHERE "instrument" IS NOT NULL;

-- A person's results on one form in order: the one before a result and the first one.
CREATE INDEX "Submission_student_form_series_idx" ON "Submission"("studentId", "formId", "completedAt", "id");
CREATE INDEX "Submission_candidate_form_series_idx" ON "Submission"("candidateId", "formId", "completedAt", "id");
