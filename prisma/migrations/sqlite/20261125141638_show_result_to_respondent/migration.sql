-- Whether a signed-in student sees their own score (contract §12). Written by hand as ALTER TABLE
-- rather than the engine's table rebuild of "Form", which copies every form for one new column.
ALTER TABLE "Form" ADD COLUMN "showResultToRespondent" BOOLEAN NOT NULL DEFAULT false;
