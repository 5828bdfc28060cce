-- Care over time (docs/api-contract.md §18, ADR 80): a form's reliable-change constants, its
-- remission threshold and its direction.
ALTER TABLE "Form" ADD COLUMN     "lowerIsBetter" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "reliableChangeReliability" DOUBLE PRECISION,
ADD COLUMN     "reliableChangeSd" DOUBLE PRECISION,
ADD COLUMN     "remissionBelow" DOUBLE PRECISION;

-- An installed instrument kept the constants of its definition in its mark (ADR 72): they become
-- the form's own.
UPDATE "Form"
   SET "reliableChangeSd" = ("instrument" -> 'reliableChange' ->> 'sd')::DOUBLE PRECISION,
       "reliableChangeReliability" = ("instrument" -> 'reliableChange' ->> 'reliability')::DOUBLE PRECISION,
       "remissionBelow" = ("instrument" ->> 'remissionBelow')::DOUBLE PRECISION,
       "lowerIsBetter" = COALESCE(("instrument" ->> 'lowerIsBetter')::BOOLEAN, TRUE)
 WHERE "instrument" IS NOT NULL;

-- A person's results on one form in order: the one before a result and the first one.
CREATE INDEX "Submission_student_form_series_idx" ON "Submission"("studentId", "formId", "completedAt", "id");
CREATE INDEX "Submission_candidate_form_series_idx" ON "Submission"("candidateId", "formId", "completedAt", "id");
