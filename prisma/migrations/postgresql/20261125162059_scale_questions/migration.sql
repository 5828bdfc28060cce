-- AlterTable
ALTER TABLE "Question" ADD COLUMN     "scaleMax" INTEGER,
ADD COLUMN     "scaleMaxLabel" TEXT,
ADD COLUMN     "scaleMin" INTEGER,
ADD COLUMN     "scaleMinLabel" TEXT;
