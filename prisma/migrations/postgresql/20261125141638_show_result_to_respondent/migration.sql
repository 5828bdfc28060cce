-- AlterTable
ALTER TABLE "Form" ADD COLUMN     "showResultToRespondent" BOOLEAN NOT NULL DEFAULT false;
