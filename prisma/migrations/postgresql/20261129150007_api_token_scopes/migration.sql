-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN     "readOnly" BOOLEAN NOT NULL DEFAULT false;
