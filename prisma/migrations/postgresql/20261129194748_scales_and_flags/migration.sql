-- AlterTable
ALTER TABLE "Form" ADD COLUMN     "criticalMessage" TEXT,
ADD COLUMN     "scoring" JSONB,
ADD COLUMN     "subscales" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Option" ADD COLUMN     "critical" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Question" ADD COLUMN     "key" TEXT,
ADD COLUMN     "reverseScored" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "ScoreRange" ADD COLUMN     "critical" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Submission" ADD COLUMN     "flaggedAt" TIMESTAMP(3),
ADD COLUMN     "flags" JSONB,
ADD COLUMN     "subscales" JSONB;

-- CreateIndex
CREATE UNIQUE INDEX "Question_formId_key_key" ON "Question"("formId", "key");
