-- The version of a form's questions, options and bands (ADR 33). Written by hand as ALTER TABLE
-- rather than the engine's table rebuild of "Form", which copies every form for one new column.
ALTER TABLE "Form" ADD COLUMN "contentVersion" INTEGER NOT NULL DEFAULT 0;
