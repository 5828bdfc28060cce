-- AlterTable
ALTER TABLE "Webhook" ADD COLUMN     "formIds" JSONB NOT NULL DEFAULT '[]';
