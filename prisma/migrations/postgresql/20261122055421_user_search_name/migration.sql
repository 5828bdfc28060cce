-- AlterTable
ALTER TABLE "User" ADD COLUMN     "searchName" TEXT NOT NULL DEFAULT '';
