-- AlterTable
ALTER TABLE "Form" ADD COLUMN     "contentVersion" INTEGER NOT NULL DEFAULT 0;
