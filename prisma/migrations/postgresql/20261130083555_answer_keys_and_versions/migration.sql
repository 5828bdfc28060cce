-- Answer keys, feedback, the review and versions (docs/api-contract.md §22, ADR 90).
-- CreateEnum
CREATE TYPE "ScoringRule" AS ENUM ('ALL_OR_NOTHING', 'PARTIAL');

-- CreateEnum
CREATE TYPE "ReviewPolicy" AS ENUM ('NEVER', 'AFTER_SUBMIT', 'AFTER_CLOSE');

-- AlterTable
ALTER TABLE "Form" ADD COLUMN     "review" "ReviewPolicy" NOT NULL DEFAULT 'NEVER',
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Option" ADD COLUMN     "correct" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "feedback" TEXT;

-- AlterTable
ALTER TABLE "Question" ADD COLUMN     "feedback" TEXT,
ADD COLUMN     "points" DOUBLE PRECISION,
ADD COLUMN     "scoringRule" "ScoringRule" NOT NULL DEFAULT 'ALL_OR_NOTHING';

-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "formVersion" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "FormVersion" (
    "formId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,

    CONSTRAINT "FormVersion_pkey" PRIMARY KEY ("formId","version")
);

-- AddForeignKey
ALTER TABLE "FormVersion" ADD CONSTRAINT "FormVersion_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every form so far is at its version 1, made when the form was.
INSERT INTO "FormVersion" ("formId", "version", "createdAt", "createdById") SELECT "id", 1, "createdAt", "createdById" FROM "Form";
