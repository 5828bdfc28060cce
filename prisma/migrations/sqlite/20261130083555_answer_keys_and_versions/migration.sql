-- Answer keys, feedback, the review and versions (docs/api-contract.md §22, ADR 90): every column
-- added at the end by ALTER TABLE, so no table is rebuilt (a rebuild would drop the triggers that
-- keep the search index, the report totals and the summary tallies).
ALTER TABLE "Form" ADD COLUMN "review" TEXT NOT NULL DEFAULT 'NEVER';
ALTER TABLE "Form" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;

ALTER TABLE "Option" ADD COLUMN "correct" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Option" ADD COLUMN "feedback" TEXT;

ALTER TABLE "Question" ADD COLUMN "points" REAL;
ALTER TABLE "Question" ADD COLUMN "scoringRule" TEXT NOT NULL DEFAULT 'ALL_OR_NOTHING';
ALTER TABLE "Question" ADD COLUMN "feedback" TEXT;

ALTER TABLE "Submission" ADD COLUMN "formVersion" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "FormVersion" (
    "formId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,

    PRIMARY KEY ("formId", "version"),
    CONSTRAINT "FormVersion_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Every form so far is at its version 1, made when the form was.
INSERT INTO "FormVersion" ("formId", "version", "createdAt", "createdById") SELECT "id", 1, "createdAt", "createdById" FROM "Form";
