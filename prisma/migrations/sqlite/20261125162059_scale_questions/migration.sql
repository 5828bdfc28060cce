-- AlterTable
ALTER TABLE "Question" ADD COLUMN "scaleMax" INTEGER;
ALTER TABLE "Question" ADD COLUMN "scaleMaxLabel" TEXT;
ALTER TABLE "Question" ADD COLUMN "scaleMin" INTEGER;
ALTER TABLE "Question" ADD COLUMN "scaleMinLabel" TEXT;
